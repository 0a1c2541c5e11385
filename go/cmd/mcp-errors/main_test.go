package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var root = filepath.Join("..", "..", "..")

type vectorCase struct {
	Name     string                     `json:"name"`
	Input    json.RawMessage            `json:"input"`
	Options  map[string]json.RawMessage `json:"options"`
	Expected json.RawMessage            `json:"expected"`
}

func cases(t *testing.T, file string) []vectorCase {
	t.Helper()
	text, err := os.ReadFile(filepath.Join(root, "tests", "vectors", file))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Cases []vectorCase }
	if err := json.Unmarshal(text, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Cases
}

// compact is the JSON as the other runners serialize it: key order and
// number literals kept, only the escapes JSON needs.
func compact(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var b []byte
	var walk func() error
	walk = func() error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch v := tok.(type) {
		case json.Delim:
			b = append(b, byte(v))
			for i := 0; dec.More(); i++ {
				if i > 0 {
					b = append(b, ',')
				}
				if v == '{' {
					k, _ := dec.Token()
					b = appendJSONString(b, k.(string))
					b = append(b, ':')
				}
				if err := walk(); err != nil {
					return err
				}
			}
			dec.Token()
			b = append(b, map[json.Delim]byte{'{': '}', '[': ']'}[v])
		case string:
			b = appendJSONString(b, v)
		case json.Number:
			b = append(b, v...)
		case bool:
			b = append(b, fmt.Sprint(v)...)
		case nil:
			b = append(b, "null"...)
		}
		return nil
	}
	if err := walk(); err != nil {
		t.Fatal(err)
	}
	return string(b)
}

type result struct {
	stdout, stderr string
	status         int
}

func goCLI(args []string, input []byte) result {
	var out, errOut bytes.Buffer
	status := run(args, bytes.NewReader(input), &out, &errOut)
	return result{out.String(), errOut.String(), status}
}

var flags = map[string]string{
	"profile": "--profile", "format": "--format", "spec": "--spec", "target": "--target", "tool_name": "--tool",
	"now": "--now", "error_id": "--id", "masked_message": "--masked-message", "output_schema": "--output-schema", "extra_fields": "--extra-fields",
	"limits": "--limits", "rules": "--rules",
}

func args(t *testing.T, command string, options map[string]json.RawMessage) []string {
	out := []string{command}
	keys := make([]string, 0, len(options))
	for k := range options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := options[k]
		switch k {
		case "mask":
			if string(v) == "true" {
				out = append(out, "--mask")
			}
		case "tool_failure":
			if string(v) == "true" {
				out = append(out, "--tool-failure")
			}
		default:
			var s string
			if json.Unmarshal(v, &s) != nil {
				s = compact(t, v)
			}
			out = append(out, flags[k], s)
		}
	}
	return out
}

func TestClassifyVectorsAsLines(t *testing.T) {
	var input, want bytes.Buffer
	n := 0
	for _, c := range cases(t, "classify.json") {
		if len(c.Options) > 0 {
			got := goCLI(args(t, "classify", c.Options), []byte(compact(t, c.Input)+"\n"))
			if got.stdout != compact(t, c.Expected)+"\n" || got.status != 0 {
				t.Errorf("%s: %q (status %d)", c.Name, got.stdout, got.status)
			}
			n++
			continue
		}
		input.WriteString(compact(t, c.Input) + "\n")
		want.WriteString(compact(t, c.Expected) + "\n")
		n++
	}
	got := goCLI([]string{"classify"}, input.Bytes())
	if got.stdout != want.String() || got.status != 0 {
		t.Fatalf("classify lines differ (status %d)", got.status)
	}
	t.Logf("classify: %d vectors", n)
}

func TestRenderVectorsWithFlags(t *testing.T) {
	cs := cases(t, "render.json")
	for _, c := range cs {
		got := goCLI(args(t, "render", c.Options), []byte(compact(t, c.Input)+"\n"))
		if got.stdout != compact(t, c.Expected)+"\n" || got.status != 0 {
			t.Errorf("%s: %q (status %d, %s)", c.Name, got.stdout, got.status, got.stderr)
		}
	}
	t.Logf("render: %d vectors", len(cs))
}

func TestParseVectorsAsLines(t *testing.T) {
	var input, want bytes.Buffer
	cs := cases(t, "parse.json")
	for _, c := range cs {
		input.WriteString(compact(t, c.Input) + "\n")
		want.WriteString(compact(t, c.Expected) + "\n")
	}
	input.WriteString("[1]\n{not json\n\n")
	got := goCLI([]string{"parse", "--now", "2026-11-24T10:00:00Z"}, input.Bytes())
	lines := strings.Split(got.stdout, "\n")
	if got.status != 1 || !strings.HasPrefix(got.stdout, want.String()) || len(lines) != len(cs)+3 {
		t.Fatalf("status %d, %d lines", got.status, len(lines))
	}
	t.Logf("parse: %d vectors", len(cs))
}

func TestBadLinesAndHelp(t *testing.T) {
	data := []byte("{\"status\":404}\n{not json\n\n   \n\xef\xbb\xbf\n{\xff}\n\xf0\x90\x80")
	got := goCLI([]string{"classify"}, data)
	lines := strings.Split(strings.TrimSuffix(got.stdout, "\n"), "\n")
	if got.status != 1 || len(lines) != 5 {
		t.Fatalf("%d: %q", got.status, got.stdout)
	}
	if !strings.Contains(lines[3], `line is not UTF-8: invalid utf-8 sequence of 1 bytes from index 1","line":6`) ||
		!strings.Contains(lines[4], `line is not UTF-8: incomplete utf-8 byte sequence from index 0","line":7`) {
		t.Fatalf("%q", got.stdout)
	}
	help := goCLI([]string{"--help"}, nil)
	if help.status != 0 || !strings.Contains(help.stdout, "targets:  tool-result, soft-result, protocol-error, needs-input, log-record") {
		t.Fatalf("%+v", help)
	}
	usage := goCLI([]string{"render", "--profile", "nope"}, nil)
	if usage.status != 2 || !strings.HasPrefix(usage.stderr, `mcp-errors: unknown profile "nope"`) || usage.stdout != "" {
		t.Fatalf("%+v", usage)
	}
	if got := goCLI([]string{"taxonomy"}, nil); got.status != 0 || strings.Count(got.stdout, "\n") != 19 {
		t.Fatalf("%+v", got)
	}
}

// The Rust CLI, when built (cargo build, or MCP_ERRORS_CLI): every CLI only
// does I/O, so the bytes and exit statuses must be equal, hostile lines
// included.
func rustCLI(t *testing.T) string {
	path := os.Getenv("MCP_ERRORS_CLI")
	if path == "" {
		path = filepath.Join(root, "target", "debug", "mcp-errors")
	}
	if _, err := os.Stat(path); err != nil {
		t.Skipf("the Rust CLI %s is not built", path)
	}
	abs, _ := filepath.Abs(path)
	return abs
}

func rustRun(t *testing.T, cli string, args []string, input []byte) result {
	cmd := exec.Command(cli, args...)
	cmd.Stdin = bytes.NewReader(input)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	status := 0
	if e, ok := err.(*exec.ExitError); ok {
		status = e.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{out.String(), errOut.String(), status}
}

func TestParityWithTheRustCLI(t *testing.T) {
	cli := rustCLI(t)
	var classify bytes.Buffer
	for _, c := range cases(t, "classify.json") {
		classify.WriteString(compact(t, c.Input) + "\n")
	}
	classify.WriteString("{not json\n\n   \n[1,2\n\"just a string\"\n{\"message\":\"crlf\"}\r\n\ufeff\n\ufeff{\"status\":404}\n\x1c\n\u00a0\n\t\r\n\r\n\u2028\n")
	classify.Write([]byte{0x7B, 0xFF, 0x7D, 0x0A, 0xE2, 0x82, 0x0A, 0xF0, 0x90, 0x28, 0x0A, 0xED, 0xA0, 0x80, 0x0A})
	big := `{"message":"` + strings.Repeat("x", 20*1024*1024) + `"}`
	under := `{"status":503,"message":"` + strings.Repeat("y", 12*1024*1024) + `"}`
	hostile := bytes.Join([][]byte{
		[]byte("\xef\xbb\xbf"), nil, []byte(" \t"), []byte("\x1c"), []byte("{\"status\":429}\r"), []byte("\r"),
		[]byte(big), []byte(under), append([]byte(big[:len(big)-3]), "\xff\"}"...), []byte("\xf0\x90\x80"),
		[]byte(`{"status":404}`),
	}, []byte("\n"))
	var parse bytes.Buffer
	for _, c := range cases(t, "parse.json") {
		parse.WriteString(compact(t, c.Input) + "\n")
	}
	runs := []struct {
		args  []string
		input []byte
	}{
		{[]string{"classify"}, classify.Bytes()},
		{[]string{"parse", "--now", "2026-11-24T10:00:00Z"}, parse.Bytes()},
		{[]string{"classify"}, hostile},
		{[]string{"render", "--profile", "text", "--limits", `{"max_message_chars":64}`}, hostile},
		{[]string{"render", "--profile", "tool-error-v1", "--now", "2025-10-27T14:32:15Z", "--extra-fields", `{"id":12345678901234567890,"ratio":0.1}`}, []byte("{\"status\":500}\n")},
		{[]string{"--help"}, nil},
		{[]string{"taxonomy"}, nil},
		{[]string{"schema", "text"}, nil},
		{[]string{}, nil},
		{[]string{"nope"}, nil},
		{[]string{"render", "--profile"}, nil},
		{[]string{"classify", "--bad", "x"}, nil},
		{[]string{"render", "--format", "nope", "--profile", "nope"}, nil},
		{[]string{"render", "--now", "soon", "--limits", "{bad"}, nil},
		{[]string{"render", "--output-schema", "{bad"}, nil},
		{[]string{"render", "--extra-fields", `{"a":"\ud800"}`}, nil},
		{[]string{"render", "--limits", `{"mäx\u0001":1}`}, nil},
		{[]string{"classify", "--limits", `{"max_depth":0}`, "--now", "soon"}, []byte("{\"status\":500}\n")},
		{[]string{"frøbnicate\u0001"}, nil},
		{[]string{"classify"}, []byte("{\"status\":404}")}, // no final newline
		{[]string{"classify"}, nil},
	}
	for _, r := range runs {
		want := rustRun(t, cli, r.args, r.input)
		got := goCLI(r.args, r.input)
		if got != want {
			t.Errorf("%q: Go and Rust differ\n  rust %d %q %q\n  go   %d %q %q", r.args, want.status, clipped(want.stdout), clipped(want.stderr),
				got.status, clipped(got.stdout), clipped(got.stderr))
		}
	}
	t.Logf("%d runs equal to the Rust CLI", len(runs))
}

func clipped(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}
