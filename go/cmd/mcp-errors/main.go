// Command mcp-errors is the mcp-errors command line, hosted in Go: byte for
// byte what the Rust, npm and Python CLIs print.
//
//	mcp-errors classify|parse|render [flags] < lines.jsonl
//	mcp-errors taxonomy
//	mcp-errors schema PROFILE
//
// Only I/O lives here: what the arguments mean, the usage text and what each
// input line becomes are the core's (the component's `cli` interface): start
// reads the arguments, line answers each input line, bad-line answers a line
// that is not UTF-8.
package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"strconv"
	"unicode/utf8"

	_ "github.com/mcp-errors/mcp-errors/go" // embeds the core module and sets the engine
	"github.com/mcp-errors/mcp-errors/go/internal/abi"
	"github.com/mcp-errors/mcp-errors/go/internal/engine"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole command: arguments and streams in, exit status out.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx := context.Background()
	pool := engine.Get()
	var plan abi.Plan
	err := pool.Do(ctx, func(in *abi.Instance) error {
		var err error
		plan, err = in.CliStart(ctx, args)
		return err
	})
	if err != nil {
		io.WriteString(stderr, "mcp-errors: "+err.Error()+"\n")
		return 1
	}
	if f := plan.Finish; f != nil {
		_, werr := io.WriteString(stdout, f.Stdout)
		io.WriteString(stderr, f.Stderr)
		if werr != nil {
			return 1
		}
		return int(f.Status)
	}
	command := plan.Lines
	out := bufio.NewWriterSize(stdout, 64<<10)
	in := bufio.NewReaderSize(stdin, 64<<10)
	failed := false
	for number := uint64(1); ; number++ {
		line, rerr := in.ReadBytes('\n')
		if len(line) == 0 && rerr != nil {
			if rerr != io.EOF {
				out.Flush()
				io.WriteString(stderr, "mcp-errors: reading stdin: "+rerr.Error()+"\n")
				return 1
			}
			break
		}
		if line[len(line)-1] == '\n' {
			line = line[:len(line)-1]
		}
		text, ok, lineFailed := answer(ctx, pool, command, line, number)
		if ok {
			failed = failed || lineFailed
			if _, err := out.WriteString(text + "\n"); err != nil {
				return 1
			}
		}
		if rerr != nil {
			break
		}
	}
	if out.Flush() != nil || failed {
		return 1
	}
	return 0
}

// answer is the output line for one input line (ok false: none, a blank line).
func answer(ctx context.Context, pool *abi.Pool, command string, line []byte, number uint64) (text string, ok, failed bool) {
	var out abi.OutputLine
	err := pool.Do(ctx, func(in *abi.Instance) error {
		var err error
		if utf8.Valid(line) {
			out, ok, err = in.CliLine(ctx, command, string(line), number)
			return err
		}
		// The valid prefix is skipped and the rest cut four bytes past the
		// bad sequence's start (the WIT allows both): a long line stays cheap.
		start := validPrefix(line)
		end := min(start+4, len(line))
		out, err = in.CliBadLine(ctx, uint64(start), line[start:end], number)
		ok = true
		return err
	})
	if err != nil {
		// A line the component could not answer (it trapped): an error line all the same.
		return failedLine(err, number), true, true
	}
	return out.Text, ok, out.Failed
}

// validPrefix is the length of the longest valid UTF-8 prefix of b.
func validPrefix(b []byte) int {
	i := 0
	for i < len(b) {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return i
}

func failedLine(err error, number uint64) string {
	kind, message := "trap", err.Error()
	var core *abi.CoreError
	if errors.As(err, &core) {
		kind, message = core.Case.Kind(), core.Message
	}
	b := []byte(`{"error":{"kind":`)
	b = strconv.AppendQuote(b, kind)
	b = append(b, `,"message":`...)
	b = appendJSONString(b, message)
	b = append(b, `,"line":`...)
	b = strconv.AppendUint(b, number, 10)
	return string(append(b, "}}"...))
}

// appendJSONString appends s as a JSON string (only the escapes JSON needs).
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for _, r := range s {
		switch {
		case r == '"':
			b = append(b, `\"`...)
		case r == '\\':
			b = append(b, `\\`...)
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\t':
			b = append(b, `\t`...)
		case r < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[r>>4], hex[r&0xf])
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"')
}
