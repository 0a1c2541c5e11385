package mcperrors

import (
	"encoding/json"
	"os"
	"testing"
	"unicode/utf16"
)

// TestRuntimesDigest folds every vector's output, and one failure through
// the error path, into the FNV-1a digest npm/test/runtimes/check.mjs makes in
// each JavaScript runtime (over UTF-16 code units, as JavaScript strings
// are): the runtimes check (cargo xtask test) runs this test with
// MCP_ERRORS_DIGEST_FILE set and requires Go's digest to equal theirs.
func TestRuntimesDigest(t *testing.T) {
	digest := uint32(0x811c9dc5)
	add := func(s string) {
		for _, u := range utf16.Encode([]rune(s)) {
			digest = (digest ^ uint32(u)) * 0x01000193
		}
	}
	// The input as JavaScript's JSON.stringify writes it (numbers as float64,
	// written the ES way: 1000.0 is 1000), which is what the runtimes send.
	jsInput := func(c vectorCase) string {
		if c.Raw != nil {
			return *c.Raw
		}
		return compactWith(t, c.Input, jsNumber)
	}
	failures := []string{}
	cases := 0
	for _, c := range loadCases(t, "classify.json") {
		out, err := ClassifyJSON(jsInput(c), parseOptions(t, c).classify(t))
		add(out)
		if err != nil || out != jsExpected(t, c) {
			failures = append(failures, "classify: "+c.Name)
		}
		cases++
	}
	for _, c := range loadCases(t, "render.json") {
		out, err := RenderJSON(jsInput(c), parseOptions(t, c).render(t))
		add(out)
		if err != nil || out != jsExpected(t, c) {
			failures = append(failures, "render: "+c.Name)
		}
		cases++
	}
	for _, c := range loadCases(t, "parse.json") {
		out, err := ParseJSON(jsInput(c), parseOptions(t, c).classify(t))
		add(out)
		if err != nil || out != jsExpected(t, c) {
			failures = append(failures, "parse: "+c.Name)
		}
		cases++
	}
	// The error path: the raw error JavaScript's converter makes of
	// `new TypeError('fetch failed', { cause })` (cause: ECONNREFUSED), as
	// check.mjs renders it with toolResult.
	raw := `{"name":"TypeError","message":"fetch failed","cause":{"name":"Error","message":"connect ECONNREFUSED 127.0.0.1:1","code":"ECONNREFUSED"},"tool":"fetch_page"}`
	out, err := RenderJSON(raw, RenderOptions{ToolName: "fetch_page", Now: "2025-10-27T14:32:15Z", ErrorID: "e1", Format: FormatJSON, Mask: MaskOff})
	add(out)
	if err != nil {
		failures = append(failures, "toolResult: "+err.Error())
	}
	cases++
	if len(failures) > 0 {
		t.Errorf("%d failures, first: %s", len(failures), failures[0])
	}
	if file := os.Getenv("MCP_ERRORS_DIGEST_FILE"); file != "" {
		line, _ := json.Marshal(map[string]any{"cases": cases, "failures": failures, "digest": formatHex(digest)})
		if err := os.WriteFile(file, line, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func formatHex(v uint32) string {
	const digits = "0123456789abcdef"
	if v == 0 {
		return "0"
	}
	var b []byte
	for ; v > 0; v >>= 4 {
		b = append([]byte{digits[v&15]}, b...)
	}
	return string(b)
}

// jsExpected is a vector's expected output as the runtimes compare it
// (JSON.stringify of the parsed value).
func jsExpected(t testing.TB, c vectorCase) string {
	return compactWith(t, c.Expected, jsNumber)
}

// jsNumber writes a number as JavaScript does: a float64, in the ES form
// encoding/json also writes (1000.0 is 1000).
func jsNumber(n json.Number) string {
	f, err := n.Float64()
	if err != nil {
		return string(n)
	}
	out, _ := json.Marshal(f)
	return string(out)
}
