package mcperrors

// The shared vectors (../tests/vectors/*.json) through the Go host: the same
// bytes as the Rust core, the wasmtime harness, the npm and Python packages.
// A vector is {name, input, options, expected}; the input is serialized
// compactly with its key order kept, and the output must equal `expected`
// serialized the same way, byte for byte.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-errors/mcp-errors/go/internal/abi"
)

var vectorsDir = filepath.Join("..", "tests", "vectors")

type vectorCase struct {
	Name          string          `json:"name"`
	API           string          `json:"api"`
	Raw           *string         `json:"raw"`
	Input         json.RawMessage `json:"input"`
	Options       json.RawMessage `json:"options"`
	Expected      json.RawMessage `json:"expected"`
	ExpectedError *struct {
		Kind    string `json:"kind"`
		Message string `json:"message"`
	} `json:"expected_error"`
}

func loadCases(t testing.TB, file string) []vectorCase {
	t.Helper()
	text, err := os.ReadFile(filepath.Join(vectorsDir, file))
	if err != nil {
		t.Fatalf("reading %s: %v", file, err)
	}
	var doc struct {
		Cases []vectorCase `json:"cases"`
	}
	if err := json.Unmarshal(text, &doc); err != nil {
		t.Fatalf("parsing %s: %v", file, err)
	}
	if len(doc.Cases) == 0 {
		t.Fatalf("%s has no cases", file)
	}
	return doc.Cases
}

// compactJSON serializes JSON as the other hosts' runners do (serde_json
// with preserve_order, Python's json.dumps(ensure_ascii=False,
// separators=(",", ":"))): key order and number literals kept, strings with
// only the escapes JSON requires.
func compactJSON(t testing.TB, raw json.RawMessage) string {
	t.Helper()
	return compactWith(t, raw, func(n json.Number) string { return string(n) })
}

// compactWith is compactJSON with each number written by num.
func compactWith(t testing.TB, raw json.RawMessage, num func(json.Number) string) string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var b bytes.Buffer
	if err := writeToken(dec, &b, num); err != nil {
		t.Fatalf("re-serializing %s: %v", raw, err)
	}
	return b.String()
}

func writeToken(dec *json.Decoder, b *bytes.Buffer, num func(json.Number) string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch v := tok.(type) {
	case json.Delim:
		closing := map[json.Delim]byte{'{': '}', '[': ']'}[v]
		b.WriteByte(byte(v))
		for i := 0; dec.More(); i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			if v == '{' {
				key, err := dec.Token()
				if err != nil {
					return err
				}
				writeJSONString(b, key.(string))
				b.WriteByte(':')
			}
			if err := writeToken(dec, b, num); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil {
			return err
		}
		b.WriteByte(closing)
	case string:
		writeJSONString(b, v)
	case json.Number:
		b.WriteString(num(v))
	case bool:
		fmt.Fprint(b, v)
	case nil:
		b.WriteString("null")
	}
	return nil
}

func rawInput(t testing.TB, c vectorCase) string {
	if c.Raw != nil {
		return *c.Raw
	}
	return compactJSON(t, c.Input)
}

// vectorOptions is a vector's options object.
type vectorOptions struct {
	Profile      string          `json:"profile"`
	Format       string          `json:"format"`
	Spec         string          `json:"spec"`
	Target       string          `json:"target"`
	ToolName     string          `json:"tool_name"`
	Now          string          `json:"now"`
	ErrorID      string          `json:"error_id"`
	Masked       string          `json:"masked_message"`
	OutputSchema *string         `json:"output_schema"`
	ExtraFields  *string         `json:"extra_fields"`
	Mask         *bool           `json:"mask"`
	ToolFailure  bool            `json:"tool_failure"`
	Limits       map[string]int  `json:"limits"`
	Rules        json.RawMessage `json:"rules"`
}

func parseOptions(t testing.TB, c vectorCase) vectorOptions {
	var o vectorOptions
	if len(c.Options) > 0 {
		if err := json.Unmarshal(c.Options, &o); err != nil {
			t.Fatalf("%s: options: %v", c.Name, err)
		}
	}
	return o
}

func (o vectorOptions) limits(t testing.TB) Limits {
	var l Limits
	for k, v := range o.Limits {
		switch k {
		case "max_message_chars":
			l.MaxMessageChars = int64(v)
		case "max_string_chars":
			l.MaxStringChars = int64(v)
		case "max_depth":
			l.MaxDepth = int64(v)
		case "max_members":
			l.MaxMembers = int64(v)
		case "max_rendered_bytes":
			l.MaxRenderedBytes = int64(v)
		default:
			t.Fatalf("unknown limit %q in a vector", k)
		}
	}
	return l
}

func (o vectorOptions) classify(t testing.TB) ClassifyOptions {
	c := ClassifyOptions{Now: o.Now, Limits: o.limits(t)}
	if len(o.Rules) > 0 {
		c.Rules = o.Rules
	}
	return c
}

func (o vectorOptions) render(t testing.TB) RenderOptions {
	r := RenderOptions{
		Profile: Profile(o.Profile), Format: Format(o.Format), Spec: Spec(o.Spec), Target: Target(o.Target),
		ToolName: o.ToolName, Now: o.Now, ErrorID: o.ErrorID, MaskedMessage: o.Masked, ToolFailure: o.ToolFailure, Limits: o.limits(t),
	}
	if o.OutputSchema != nil {
		r.OutputSchema = *o.OutputSchema
	}
	if o.ExtraFields != nil {
		r.ExtraFields = *o.ExtraFields
	}
	if o.Mask != nil {
		r.Mask = map[bool]Mask{true: MaskOn, false: MaskOff}[*o.Mask]
	}
	if len(o.Rules) > 0 {
		r.Rules = o.Rules
	}
	return r
}

type failures struct {
	t     *testing.T
	suite string
	n     int
	list  []string
}

func (f *failures) check(name, want, got string, err error) {
	f.n++
	if err != nil || got != want {
		f.list = append(f.list, fmt.Sprintf("%s\n  want %s\n  got  %s (%v)", name, clipText(want), clipText(got), err))
	}
}

func (f *failures) report() {
	f.t.Helper()
	if len(f.list) > 0 {
		f.t.Fatalf("%s: %d of %d failed:\n%s", f.suite, len(f.list), f.n, strings.Join(f.list, "\n"))
	}
	f.t.Logf("%s: %d passed", f.suite, f.n)
}

func clipText(s string) string {
	if len(s) > 400 {
		return s[:400] + "…"
	}
	return s
}

func TestClassifyVectors(t *testing.T) {
	cases := loadCases(t, "classify.json")
	if len(cases) < 80 {
		t.Fatalf("only %d classify cases", len(cases))
	}
	f := &failures{t: t, suite: "classify.json"}
	for _, c := range cases {
		opts := parseOptions(t, c).classify(t)
		want := compactJSON(t, c.Expected)
		got, err := ClassifyJSON(rawInput(t, c), opts)
		f.check(c.Name, want, got, err)
		// The typed form: the same error, and its JSON the same bytes.
		n, err := Classify(json.RawMessage(rawInput(t, c)), opts)
		if err == nil {
			f.check(c.Name+" (Classify)", want, n.JSON(), nil)
		} else {
			f.check(c.Name+" (Classify)", want, "", err)
		}
	}
	f.report()
}

func TestRenderVectors(t *testing.T) {
	cases := loadCases(t, "render.json")
	if len(cases) < 100 {
		t.Fatalf("only %d render cases", len(cases))
	}
	f := &failures{t: t, suite: "render.json"}
	for _, c := range cases {
		o := parseOptions(t, c)
		want := compactJSON(t, c.Expected)
		got, err := RenderJSON(rawInput(t, c), o.render(t))
		f.check(c.Name, want, got, err)
		// The normalized error, then Render: the same bytes.
		n, err := Classify(json.RawMessage(rawInput(t, c)), o.classify(t))
		if err != nil {
			f.check(c.Name+" (Render)", want, "", err)
			continue
		}
		out, err := Render(n, o.render(t))
		f.check(c.Name+" (Render)", want, string(out), err)
	}
	f.report()
}

func TestParseVectors(t *testing.T) {
	cases := loadCases(t, "parse.json")
	if len(cases) < 40 {
		t.Fatalf("only %d parse cases", len(cases))
	}
	f := &failures{t: t, suite: "parse.json"}
	for _, c := range cases {
		opts := parseOptions(t, c).classify(t)
		want := compactJSON(t, c.Expected)
		got, err := ParseJSON(rawInput(t, c), opts)
		f.check(c.Name, want, got, err)
		// The typed form (a non-error answered without the core).
		n, err := ParseResult(c.Input, opts)
		got = "null"
		if n != nil {
			got = n.JSON()
		}
		f.check(c.Name+" (ParseResult)", want, got, err)
	}
	f.report()
}

// callRaw calls classify-render-json or render-json with options given as
// JSON text, as they are (error vectors hold values the typed options refuse
// before the core sees them).
func callRaw(api, raw, options string) (string, error) {
	var out string
	err := call(func(ctx context.Context, in *abi.Instance) error {
		var err error
		if api == "render-json" {
			out, err = in.RenderJSON(ctx, raw, options)
		} else {
			out, err = in.ClassifyRenderJSON(ctx, raw, options)
		}
		return err
	})
	return out, err
}

func TestErrorVectors(t *testing.T) {
	f := &failures{t: t, suite: "errors.json"}
	for _, c := range loadCases(t, "errors.json") {
		raw := rawInput(t, c)
		var err error
		switch c.API {
		case "classify":
			_, err = ClassifyJSON(raw, parseOptions(t, c).classify(t))
		case "parse":
			_, err = ParseJSON(raw, parseOptions(t, c).classify(t))
		case "render", "render-json":
			options := "{}"
			if len(c.Options) > 0 {
				options = compactJSON(t, c.Options)
			}
			_, err = callRaw(c.API, raw, options)
		default:
			t.Fatalf("%s: unknown api %q", c.Name, c.API)
		}
		want := c.ExpectedError.Kind + ": " + c.ExpectedError.Message
		got := ""
		if e, ok := err.(*Error); ok {
			got = string(e.Kind) + ": " + e.Message
		}
		f.check(c.Name, want, got, nil)
	}
	f.report()
}

// The vectors' own serialization matches what the other runners compare
// with: a sanity check of compactJSON on every expected value.
func TestCompactJSONKeepsOrderAndLiterals(t *testing.T) {
	got := compactJSON(t, json.RawMessage(`{ "b" : 1.0, "a":[ 1e5 , "x\u00e9\/\u2028\u0001" ] }`))
	want := "{\"b\":1.0,\"a\":[1e5,\"xé/\u2028\\u0001\"]}"
	if got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}
