package mcperrors

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"
)

// Code is a canonical error code (README "The taxonomy").
type Code string

// The canonical codes, in taxonomy order.
const (
	CodeCancelled          Code = "CANCELLED"
	CodeTimeout            Code = "TIMEOUT"
	CodeInvalidArgument    Code = "INVALID_ARGUMENT"
	CodePayloadTooLarge    Code = "PAYLOAD_TOO_LARGE"
	CodeNotFound           Code = "NOT_FOUND"
	CodeGone               Code = "GONE"
	CodeAlreadyExists      Code = "ALREADY_EXISTS"
	CodeConflict           Code = "CONFLICT"
	CodeFailedPrecondition Code = "FAILED_PRECONDITION"
	CodeUnauthenticated    Code = "UNAUTHENTICATED"
	CodePermissionDenied   Code = "PERMISSION_DENIED"
	CodeRateLimited        Code = "RATE_LIMITED"
	CodeQuotaExhausted     Code = "QUOTA_EXHAUSTED"
	CodeUnimplemented      Code = "UNIMPLEMENTED"
	CodeUnavailable        Code = "UNAVAILABLE"
	CodeNetworkError       Code = "NETWORK_ERROR"
	CodeUpstreamError      Code = "UPSTREAM_ERROR"
	CodeInternal           Code = "INTERNAL"
	CodeUnknown            Code = "UNKNOWN"
)

// Category is what kind of action can fix an error.
type Category string

// The categories.
const (
	CategoryCancelled Category = "cancelled"
	CategoryClient    Category = "client"
	CategoryAuth      Category = "auth"
	CategoryLimit     Category = "limit"
	CategoryTransient Category = "transient"
	CategoryServer    Category = "server"
	CategoryUnknown   Category = "unknown"
)

// NormalizedError is the canonical, normalized error: what Classify and Parse
// return and Render takes. Its JSON is the canonical JSON every host prints
// (absent values left out, never null), fields in the canonical order.
type NormalizedError struct {
	Code      Code     `json:"code"`
	Category  Category `json:"category"`
	Retryable bool     `json:"retryable"`
	// RetryAfterMs is how long to wait before retrying, in milliseconds, when
	// the error said so (nil: not said). See RetryAfter.
	RetryAfterMs *uint64 `json:"retry_after_ms,omitempty"`
	// HTTPStatus is the HTTP status observed, when there was one.
	HTTPStatus int    `json:"http_status,omitempty"`
	Message    string `json:"message"`
	// Tool is the tool that failed, when known.
	Tool string `json:"tool,omitempty"`
	// AppCode and AppType are the tool author's own code and type.
	AppCode string `json:"app_code,omitempty"`
	AppType string `json:"app_type,omitempty"`
	// Expected is true for a deliberate error whose message is safe to show.
	Expected bool `json:"expected,omitempty"`
	// Details is a JSON object of structured details, when there are any.
	Details     json.RawMessage `json:"details,omitempty"`
	Suggestions []string        `json:"suggestions,omitempty"`
	// Evidence lists the signals that decided, e.g. "http 429", "RetryInfo 26s".
	Evidence []string `json:"evidence"`
	// Original is the upstream response {status, body}, when there was one.
	Original json.RawMessage `json:"original,omitempty"`
}

// RetryAfter is RetryAfterMs as a duration (0 when not said).
func (n *NormalizedError) RetryAfter() time.Duration {
	if n == nil || n.RetryAfterMs == nil {
		return 0
	}
	return time.Duration(*n.RetryAfterMs) * time.Millisecond
}

// Error makes a NormalizedError usable as a Go error: its code and message.
func (n *NormalizedError) Error() string {
	return string(n.Code) + ": " + n.Message
}

// JSON is the canonical JSON text, written as the core writes it (the
// same bytes for an error the core returned: the field order, the raw
// details and original, and the string escapes are the core's).
func (n *NormalizedError) JSON() string {
	var b bytes.Buffer
	b.WriteString(`{"code":`)
	writeJSONString(&b, string(n.Code))
	b.WriteString(`,"category":`)
	writeJSONString(&b, string(n.Category))
	b.WriteString(`,"retryable":`)
	b.WriteString(strconv.FormatBool(n.Retryable))
	if n.RetryAfterMs != nil {
		b.WriteString(`,"retry_after_ms":`)
		b.WriteString(strconv.FormatUint(*n.RetryAfterMs, 10))
	}
	if n.HTTPStatus != 0 {
		b.WriteString(`,"http_status":`)
		b.WriteString(strconv.Itoa(n.HTTPStatus))
	}
	b.WriteString(`,"message":`)
	writeJSONString(&b, n.Message)
	for _, f := range [3]struct{ k, v string }{{"tool", n.Tool}, {"app_code", n.AppCode}, {"app_type", n.AppType}} {
		if f.v != "" {
			b.WriteString(`,"` + f.k + `":`)
			writeJSONString(&b, f.v)
		}
	}
	if n.Expected {
		b.WriteString(`,"expected":true`)
	}
	if len(n.Details) > 0 {
		b.WriteString(`,"details":`)
		writeRawJSON(&b, n.Details)
	}
	if len(n.Suggestions) > 0 {
		b.WriteString(`,"suggestions":`)
		writeStrings(&b, n.Suggestions)
	}
	b.WriteString(`,"evidence":`)
	writeStrings(&b, n.Evidence)
	if len(n.Original) > 0 {
		b.WriteString(`,"original":`)
		writeRawJSON(&b, n.Original)
	}
	b.WriteByte('}')
	return b.String()
}

// MarshalJSON writes JSON().
func (n *NormalizedError) MarshalJSON() ([]byte, error) { return []byte(n.JSON()), nil }

func writeStrings(b *bytes.Buffer, ss []string) {
	b.WriteByte('[')
	for i, s := range ss {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(b, s)
	}
	b.WriteByte(']')
}

// writeRawJSON writes raw JSON compactly (the core's text is compact
// already); JSON that is not valid is written as null.
func writeRawJSON(b *bytes.Buffer, raw json.RawMessage) {
	if err := json.Compact(b, raw); err != nil {
		b.WriteString("null")
	}
}

func normalizedFromText(text string) (*NormalizedError, error) {
	var n NormalizedError
	if err := json.Unmarshal([]byte(text), &n); err != nil {
		return nil, &Error{Kind: KindInvalidInput, Message: "the core returned a normalized error that does not parse: " + err.Error()}
	}
	return &n, nil
}

// decodeRune is utf8.DecodeRuneInString with -1 for an invalid byte.
func decodeRune(s string) (rune, int) {
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && size == 1 {
		return -1, 1
	}
	return r, size
}
