package mcperrors

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/mcp-errors/mcp-errors/go/internal/abi"
)

// Profile is the render profile: which wire contract to produce.
type Profile string

// The profiles (README "Profiles"). The zero value is the default, canonical.
const (
	ProfileCanonical    Profile = "canonical"
	ProfileToolErrorV1  Profile = "tool-error-v1"
	ProfileMCPToolError Profile = "mcp-tool-error"
	ProfileText         Profile = "text"
	ProfileErrorObject  Profile = "error-object"
	ProfileRPCEnvelope  Profile = "rpc-envelope"
)

// Profiles lists every profile, in the core's order.
var Profiles = []Profile{ProfileCanonical, ProfileToolErrorV1, ProfileMCPToolError, ProfileText, ProfileErrorObject, ProfileRPCEnvelope}

// Format is which content blocks a tool result carries.
type Format string

// The formats. The zero value is the default, markdown.
const (
	FormatMarkdown Format = "markdown" // one human text block
	FormatJSON     Format = "json"     // one JSON block
	FormatBoth     Format = "both"     // the text block, then the JSON block
)

// Spec is the MCP protocol revision whose schema the output satisfies.
type Spec string

// The revisions. The zero value is the default, 2025-11-25.
const (
	Spec20250618 Spec = "2025-06-18"
	Spec20251125 Spec = "2025-11-25"
	Spec20260728 Spec = "2026-07-28" // adds resultType: "complete"
)

// Target is what to render.
type Target string

// The targets. The zero value is the default, tool-result.
const (
	TargetToolResult    Target = "tool-result"    // a CallToolResult with isError: true
	TargetSoftResult    Target = "soft-result"    // isError: false, the error as data
	TargetProtocolError Target = "protocol-error" // a JSON-RPC error {code, message, data}
	TargetNeedsInput    Target = "needs-input"    // a needsInput:v1 elicitation result
	TargetLogRecord     Target = "log-record"     // the server's own log record
)

// Mask says whether an unexpected error's message is hidden from the model.
type Mask uint8

const (
	// MaskDefault: off in Render and RenderJSON (the core's default), on in
	// ToolResult and the SDK middlewares (as in the npm and Python wrappers).
	MaskDefault Mask = iota
	// MaskOn: unless the error is expected, the model sees a sentence saying
	// what kind of failure happened, with the error id, instead of the
	// message, and no details or upstream original.
	// Log records are never masked.
	MaskOn
	// MaskOff: the message is shown as classified (and redacted).
	MaskOff
)

// Limits bounds what is kept and rendered. A zero field takes the core's
// default; a value out of range is an invalid_option error, never silently
// changed.
type Limits struct {
	// The longest message, in characters. Default 2000; 16 to 100000.
	MaxMessageChars int64
	// The longest string inside details and the upstream original, in
	// characters. Default 4000; 16 to 1000000.
	MaxStringChars int64
	// The deepest nesting kept inside details and the original. Default 8; 1 to 32.
	MaxDepth int64
	// The most members kept per object or array. Default 100; 1 to 10000.
	MaxMembers int64
	// The largest rendered output, in bytes. Default 65536; 1024 to 16777216.
	MaxRenderedBytes int64
}

func (l Limits) fields() [5]struct {
	name  string
	value int64
} {
	return [5]struct {
		name  string
		value int64
	}{
		{"max_message_chars", l.MaxMessageChars},
		{"max_string_chars", l.MaxStringChars},
		{"max_depth", l.MaxDepth},
		{"max_members", l.MaxMembers},
		{"max_rendered_bytes", l.MaxRenderedBytes},
	}
}

// record is the WIT limits record (nil: every default). Values that cannot
// cross the boundary stop here, with the core's own words.
func (l Limits) record() (*abi.Limits, error) {
	if l == (Limits{}) {
		return nil, nil
	}
	var vals [5]*uint32
	for i, f := range l.fields() {
		if f.value == 0 {
			continue
		}
		if f.value < 0 {
			return nil, optionError("limit %q must be a non-negative integer", f.name)
		}
		if f.value > math.MaxUint32 {
			return nil, optionError("limit %q is %d; it must be below 4294967296", f.name, f.value)
		}
		v := uint32(f.value)
		vals[i] = &v
	}
	return &abi.Limits{MaxMessageChars: vals[0], MaxStringChars: vals[1], MaxDepth: vals[2], MaxMembers: vals[3], MaxRenderedBytes: vals[4]}, nil
}

// ClassifyOptions are the options of Classify, ClassifyJSON and the parse
// functions.
type ClassifyOptions struct {
	// Now is the current time as RFC 3339 text (see FormatTime), which turns
	// an HTTP-date Retry-After (classify) or a toolFailure's retryNotBefore
	// (parse) into a delay. Empty: none for Classify, ClassifyJSON and
	// ParseJSON; the current time for Parse and ParseResult.
	Now string
	// Limits bound the message, details and original.
	Limits Limits
	// Rules are your own recognizer rules (README "Your own rules"), which
	// beat every built-in signal: their JSON text (string, []byte,
	// json.RawMessage) or a value that marshals to the JSON array.
	Rules any
	// Hints go on top of the raw error Classify converts (not used by the
	// JSON-text functions, whose input is already raw-error JSON).
	Hints Hints
}

func (o ClassifyOptions) record() (abi.ClassifyOptions, error) {
	var r abi.ClassifyOptions
	if o.Now != "" {
		now := o.Now
		r.Now = &now
	}
	limits, err := o.Limits.record()
	if err != nil {
		return r, err
	}
	r.Limits = limits
	rules, err := jsonText("rules", o.Rules)
	if err != nil {
		return r, err
	}
	if rules != "" {
		r.Rules = &rules
	}
	return r, nil
}

// RenderOptions are the options of Render, RenderJSON, ToolResult and the
// SDK middlewares. Every field has a default (its zero value).
type RenderOptions struct {
	Profile Profile
	Format  Format
	Spec    Spec
	Target  Target
	// ToolName is the tool's name; it falls back to the error's own tool.
	ToolName string
	// Now is the time of the error as RFC 3339 text (see FormatTime), for the
	// profiles and log records that carry one. Empty: none in Render and
	// RenderJSON; the current time in ToolResult and the middlewares.
	Now string
	// ErrorID correlates the result with the server's log (the middlewares
	// make one when it is empty).
	ErrorID string
	// MaskedMessage is the sentence a masked error shows instead of its
	// code's own ("The weather service failed"); the error id is added to it.
	MaskedMessage string
	// OutputSchema is the tool's declared outputSchema: JSON text or a value
	// that marshals to it. Structured content that would break it is never
	// emitted.
	OutputSchema any
	// ExtraFields is a JSON object whose members are added at the top level
	// of the profile object: JSON text (keeps integers past 2^53 exact) or a
	// value that marshals to it.
	ExtraFields any
	Mask        Mask
	Limits      Limits
	// Rules are your own recognizer rules, used when the call classifies.
	Rules any
	// ToolFailure also writes the proposed machine-readable failure (SEP-3313)
	// as _meta["io.modelcontextprotocol/toolFailure"] on a tool result.
	ToolFailure bool
	// Hints go on top of the raw error ToolResult and the middlewares convert.
	Hints Hints
}

// FormatTime formats t as the RFC 3339 text the options take (UTC,
// milliseconds when there are any).
func FormatTime(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.999Z07:00")
}

// jsonText is a JSON-valued option as text: text as given, anything else
// marshalled. "" for nil.
func jsonText(name string, v any) (string, error) {
	switch t := v.(type) {
	case nil:
		return "", nil
	case string:
		return t, nil
	case []byte:
		return string(t), nil
	case json.RawMessage:
		return string(t), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", optionError("%s: %v", name, err)
	}
	return string(bytes.TrimRight(buf.Bytes(), "\n")), nil
}

// optionsJSON is the core's JSON render options (`RenderOptions::from_json`,
// snake_case keys; absent keys take their defaults). defaultMask is what
// MaskDefault means for the caller.
func (o RenderOptions) optionsJSON(defaultMask bool) (string, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	key := func(k string) {
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteString(`"` + k + `":`)
	}
	str := func(k, v string) {
		if v == "" {
			return
		}
		key(k)
		writeJSONString(&b, v)
	}
	str("profile", string(o.Profile))
	str("format", string(o.Format))
	str("spec", string(o.Spec))
	str("target", string(o.Target))
	str("tool_name", o.ToolName)
	str("now", o.Now)
	str("error_id", o.ErrorID)
	str("masked_message", o.MaskedMessage)
	for _, f := range []struct {
		name string
		v    any
	}{{"output_schema", o.OutputSchema}, {"extra_fields", o.ExtraFields}, {"rules", o.Rules}} {
		text, err := jsonText(f.name, f.v)
		if err != nil {
			return "", err
		}
		str(f.name, text)
	}
	mask := defaultMask
	switch o.Mask {
	case MaskOn:
		mask = true
	case MaskOff:
		mask = false
	case MaskDefault:
	default:
		return "", optionError("mask must be MaskDefault, MaskOn or MaskOff, not %d", o.Mask)
	}
	if mask {
		key("mask")
		b.WriteString("true")
	}
	if o.ToolFailure {
		key("tool_failure")
		b.WriteString("true")
	}
	if o.Limits != (Limits{}) {
		if _, err := o.Limits.record(); err != nil {
			return "", err
		}
		key("limits")
		b.WriteByte('{')
		n := 0
		for _, f := range o.Limits.fields() {
			if f.value == 0 {
				continue
			}
			if n > 0 {
				b.WriteByte(',')
			}
			n++
			fmt.Fprintf(&b, `"%s":%d`, f.name, f.value)
		}
		b.WriteByte('}')
	}
	b.WriteByte('}')
	return b.String(), nil
}

// writeJSONString writes s as a JSON string, escaping only what JSON requires
// (as the core and serde_json do). Invalid UTF-8 becomes U+FFFD.
func writeJSONString(b *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x80 {
			switch {
			case c == '"':
				b.WriteString(`\"`)
			case c == '\\':
				b.WriteString(`\\`)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\r':
				b.WriteString(`\r`)
			case c == '\t':
				b.WriteString(`\t`)
			case c == '\b':
				b.WriteString(`\b`)
			case c == '\f':
				b.WriteString(`\f`)
			case c < 0x20:
				b.WriteString(`\u00`)
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&0xf])
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := decodeRune(s[i:])
		if r < 0 {
			b.WriteString("\uFFFD")
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
}
