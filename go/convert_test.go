package mcperrors

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"
)

// caseError is a native error described by tests/vectors/convert.json: a
// named class (Go has none: the name comes through RawErrorer), a message,
// attributes and a cause.
type caseError struct {
	name    string
	message string
	props   map[string]any
	cause   error
}

func (e *caseError) Error() string { return e.message }
func (e *caseError) Unwrap() error { return e.cause }
func (e *caseError) RawError() map[string]any {
	m := map[string]any{"name": e.name}
	for k, v := range e.props {
		m[k] = v
	}
	return m
}

// caseValue builds a described value; this is the error being built.
func caseValue(v any, this error) any {
	switch t := v.(type) {
	case string:
		switch t {
		case "$self":
			return this
		case "$nan":
			return math.NaN()
		case "$inf":
			return math.Inf(1)
		case "$-inf":
			return math.Inf(-1)
		}
		return t
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = caseValue(x, this)
		}
		return out
	case map[string]any:
		if b, ok := t["$bytes"]; ok {
			var out []byte
			for _, x := range b.([]any) {
				out = append(out, byte(x.(float64)))
			}
			return out
		}
		if r, ok := t["$repeat"]; ok {
			p := r.([]any)
			return strings.Repeat(p[0].(string), int(p[1].(float64)))
		}
		if n, ok := t["$range"]; ok {
			out := make([]any, int(n.(float64)))
			for i := range out {
				out[i] = i
			}
			return out
		}
		if c, ok := t["$cycle"]; ok {
			o := caseValue(c, this).(map[string]any)
			o[t["key"].(string)] = o
			return o
		}
		out := map[string]any{}
		for k, x := range t {
			out[k] = caseValue(x, this)
		}
		return out
	}
	return v
}

func buildCase(d map[string]any) any {
	if v, ok := d["value"]; ok {
		return caseValue(v, nil)
	}
	if msg, ok := d["tool_error"]; ok {
		te := &ToolError{Message: msg.(string)}
		if v, ok := d["code"]; ok {
			te.Code = Code(v.(string))
		}
		if v, ok := d["app_code"]; ok {
			te.AppCode = v.(string)
		}
		if v, ok := d["app_type"]; ok {
			te.AppType = v.(string)
		}
		if v, ok := d["details"]; ok {
			te.Details = v
		}
		if v, ok := d["suggestions"]; ok {
			for _, s := range v.([]any) {
				te.Suggestions = append(te.Suggestions, s.(string))
			}
		}
		if v, ok := d["retryable"]; ok {
			te.Retryable = Bool(v.(bool))
		}
		if v, ok := d["retry_after_ms"]; ok {
			te.RetryAfter = time.Duration(v.(float64)) * time.Millisecond
		}
		return te
	}
	e := &caseError{name: d["error"].(string)}
	e.message = caseValue(d["message"], e).(string)
	if props, ok := d["props"].(map[string]any); ok {
		e.props = map[string]any{}
		for k, v := range props {
			e.props[k] = caseValue(v, e)
		}
	}
	if c, ok := d["cause"]; ok {
		if c == "$self" {
			e.cause = e
		} else {
			e.cause = buildCase(c.(map[string]any)).(error)
		}
	}
	return e
}

func caseHints(t *testing.T, h map[string]any) Hints {
	var out Hints
	for k, v := range h {
		switch k {
		case "tool":
			out.Tool = v.(string)
		case "app_code":
			out.AppCode = v.(string)
		case "app_type":
			out.AppType = v.(string)
		case "details":
			out.Details = v
		case "suggestions":
			for _, s := range v.([]any) {
				out.Suggestions = append(out.Suggestions, s.(string))
			}
		case "expected":
			out.Expected = v.(bool)
		case "retryable":
			out.Retryable = Bool(v.(bool))
		case "retry_after_ms":
			out.RetryAfter = time.Duration(v.(float64)) * time.Millisecond
		default:
			t.Fatalf("unknown hint %q", k)
		}
	}
	return out
}

// TestSharedConversionCases runs tests/vectors/convert.json, which the Node
// and Python suites run too; compared as JSON values (member order is free).
func TestSharedConversionCases(t *testing.T) {
	text, err := os.ReadFile(filepath.Join(vectorsDir, "convert.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cases []struct {
			Name     string         `json:"name"`
			Error    map[string]any `json:"error"`
			Hints    map[string]any `json:"hints"`
			Expected any            `json:"expected"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(text, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Cases) < 15 {
		t.Fatalf("only %d conversion cases", len(doc.Cases))
	}
	for _, c := range doc.Cases {
		raw := ToRawError(buildCase(c.Error), caseHints(t, c.Hints))
		var got any
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatalf("%s: %s is not JSON: %v", c.Name, raw, err)
		}
		if !reflect.DeepEqual(got, c.Expected) {
			want, _ := json.Marshal(c.Expected)
			t.Errorf("%s:\n  want %s\n  got  %s", c.Name, clipText(string(want)), clipText(string(raw)))
		}
	}
	t.Logf("convert.json: %d cases", len(doc.Cases))
}

func rawOf(t *testing.T, v any, h Hints) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(ToRawError(v, h), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func classified(t *testing.T, v any) *NormalizedError {
	t.Helper()
	n, err := Classify(v, ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestWrapChainsBecomeCauses(t *testing.T) {
	base := errors.New("connection refused")
	err := fmt.Errorf("search: %w", fmt.Errorf("dial: %w", base))
	m := rawOf(t, err, Hints{})
	if m["message"] != "search: dial: connection refused" || m["name"] != nil {
		t.Fatalf("%v", m)
	}
	cause := m["cause"].(map[string]any)
	if cause["message"] != "dial: connection refused" || cause["cause"].(map[string]any)["message"] != "connection refused" {
		t.Fatalf("%v", m)
	}
	if n := classified(t, err); n.Code != CodeNetworkError || !n.Retryable {
		t.Fatalf("%+v", n)
	}
}

func TestErrorsJoinBecomesErrors(t *testing.T) {
	err := errors.Join(errors.New("first failed"), &statusError{status: 429, msg: "slow down"})
	m := rawOf(t, err, Hints{})
	list := m["errors"].([]any)
	if len(list) != 2 || list[1].(map[string]any)["status"] != float64(429) {
		t.Fatalf("%v", m)
	}
	if n := classified(t, err); n.Code != CodeRateLimited {
		t.Fatalf("%+v", n)
	}
	// Several %w in one fmt.Errorf: the same.
	multi := fmt.Errorf("both: %w and %w", errors.New("a"), errors.New("b"))
	if got := rawOf(t, multi, Hints{})["errors"].([]any); len(got) != 2 {
		t.Fatalf("%v", got)
	}
}

// statusError is a library's error with a StatusCode method.
type statusError struct {
	status int
	msg    string
}

func (e *statusError) Error() string   { return e.msg }
func (e *statusError) StatusCode() int { return e.status }

func TestURLErrorAndNetOpErrorFromARealDial(t *testing.T) {
	// A port nothing listens on: a real *url.Error around a real *net.OpError.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	_, err = http.Get("http://" + addr + "/x")
	var ue *url.Error
	if !errors.As(err, &ue) {
		t.Fatalf("not a *url.Error: %T %v", err, err)
	}
	m := rawOf(t, err, Hints{})
	if m["name"] != "url.Error" || m["op"] != "Get" || m["url"] != "http://"+addr+"/x" {
		t.Fatalf("%v", m)
	}
	op := m["cause"].(map[string]any)
	if op["name"] != "net.OpError" || op["op"] != "dial" || op["net"] != "tcp" || op["addr"] != addr {
		t.Fatalf("%v", op)
	}
	sys := op["cause"].(map[string]any)
	if sys["name"] != "os.SyscallError" || sys["syscall"] != "connect" {
		t.Fatalf("%v", sys)
	}
	if errno := sys["cause"].(map[string]any); errno["name"] != "syscall.Errno" || errno["code"] != "ECONNREFUSED" {
		t.Fatalf("%v", errno)
	}
	n := classified(t, err)
	if n.Code != CodeNetworkError || !n.Retryable || !strings.Contains(strings.Join(n.Evidence, ","), "code ECONNREFUSED") {
		t.Fatalf("%+v", n)
	}
}

func TestNetOpErrorBuilt(t *testing.T) {
	err := &net.OpError{Op: "read", Net: "tcp", Addr: &net.TCPAddr{IP: net.IPv4(10, 0, 0, 1), Port: 443}, Err: syscall.ECONNRESET}
	m := rawOf(t, err, Hints{})
	if m["op"] != "read" || m["addr"] != "10.0.0.1:443" || m["cause"].(map[string]any)["code"] != "ECONNRESET" {
		t.Fatalf("%v", m)
	}
	if n := classified(t, err); n.Code != CodeNetworkError {
		t.Fatalf("%+v", n)
	}
}

func TestDNSError(t *testing.T) {
	for _, c := range []struct {
		err  *net.DNSError
		code string
		want Code
	}{
		{&net.DNSError{Err: "no such host", Name: "nope.invalid", IsNotFound: true}, "ENOTFOUND", CodeNetworkError},
		{&net.DNSError{Err: "i/o timeout", Name: "slow.example", Server: "10.0.0.53:53", IsTimeout: true}, "ETIMEOUT", CodeTimeout},
		{&net.DNSError{Err: "server misbehaving", Name: "x.example", IsTemporary: true}, "EAI_AGAIN", CodeNetworkError},
	} {
		m := rawOf(t, c.err, Hints{})
		if m["name"] != "net.DNSError" || m["code"] != c.code || m["host"] != c.err.Name {
			t.Fatalf("%v", m)
		}
		if n := classified(t, c.err); n.Code != c.want {
			t.Fatalf("%s: %+v", c.code, n)
		}
	}
}

func TestContextErrors(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	m := rawOf(t, ctx.Err(), Hints{})
	if m["name"] != "context.DeadlineExceeded" || m["message"] != "context deadline exceeded" {
		t.Fatalf("%v", m)
	}
	if n := classified(t, ctx.Err()); n.Code != CodeTimeout || !n.Retryable {
		t.Fatalf("%+v", n)
	}
	if n := classified(t, fmt.Errorf("query users: %w", context.DeadlineExceeded)); n.Code != CodeTimeout {
		t.Fatalf("%+v", n)
	}
	if m := rawOf(t, context.Canceled, Hints{}); m["name"] != "context.Canceled" {
		t.Fatalf("%v", m)
	}
	if n := classified(t, context.Canceled); n.Code != CodeCancelled || n.Retryable {
		t.Fatalf("%+v", n)
	}
}

func TestPathErrorAndErrno(t *testing.T) {
	_, err := os.Open(filepath.Join(t.TempDir(), "missing.txt"))
	m := rawOf(t, err, Hints{})
	if m["name"] != "fs.PathError" || m["op"] != "open" || !strings.HasSuffix(m["path"].(string), "missing.txt") {
		t.Fatalf("%v", m)
	}
	if errno := m["cause"].(map[string]any); errno["code"] != "ENOENT" || errno["name"] != "syscall.Errno" {
		t.Fatalf("%v", errno)
	}
	if n := classified(t, err); n.Code != CodeNotFound {
		t.Fatalf("%+v", n)
	}
	for errno, code := range map[syscall.Errno]Code{
		syscall.EACCES: CodePermissionDenied, syscall.ECONNREFUSED: CodeNetworkError, syscall.ETIMEDOUT: CodeTimeout,
	} {
		if n := classified(t, errno); n.Code != code {
			t.Errorf("%v: %+v", errno, n)
		}
	}
	link := &os.LinkError{Op: "rename", Old: "/a", New: "/b", Err: syscall.EXDEV}
	if m := rawOf(t, link, Hints{}); m["old"] != "/a" || m["new"] != "/b" || m["cause"].(map[string]any)["code"] != "EXDEV" {
		t.Fatalf("%v", m)
	}
}

func TestHTTPResponse(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "30")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(429)
		io.WriteString(w, `{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}`)
	}))
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	n := classified(t, resp)
	if n.Code != CodeRateLimited || n.HTTPStatus != 429 || n.RetryAfter() != 30*time.Second ||
		n.Message != "Number of request tokens has exceeded your per-minute rate limit" {
		t.Fatalf("%+v", n)
	}
	// The body stays readable.
	rest, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(rest), "rate_limit_error") {
		t.Fatalf("the body was not put back: %q", rest)
	}
	m := rawOf(t, resp, Hints{})
	if m["status"] != float64(429) || m["body"] == nil {
		t.Fatalf("%v", m)
	}
	found := false
	for _, p := range m["headers"].([]any) {
		pair := p.([]any)
		found = found || pair[0] == "Retry-After" && pair[1] == "30"
	}
	if !found {
		t.Fatalf("headers: %v", m["headers"])
	}
}

// apiError is a library's error implementing RawErrorer.
type apiError struct {
	Status int
	Reason string
}

func (e *apiError) Error() string { return "api: " + e.Reason }
func (e *apiError) RawError() map[string]any {
	return map[string]any{"status": e.Status, "code": e.Reason, "details": map[string]any{"reason": e.Reason}, "retryable": true}
}

func TestRawErrorerGivesItsOwnFields(t *testing.T) {
	err := fmt.Errorf("listing: %w", &apiError{Status: 503, Reason: "UNAVAILABLE"})
	cause := rawOf(t, err, Hints{})["cause"].(map[string]any)
	if cause["status"] != float64(503) || cause["code"] != "UNAVAILABLE" || cause["retryable"] != true ||
		cause["name"] != "mcperrors.apiError" {
		t.Fatalf("%v", cause)
	}
	n := classified(t, err)
	if n.Code != CodeUnavailable || n.HTTPStatus != 503 || !n.Retryable {
		t.Fatalf("%+v", n)
	}
}

// sdkError is a library's error struct: its exported fields are copied.
type sdkError struct {
	StatusCode int            `json:"status_code"`
	Code       string         `json:"code"`
	RequestID  string         // snake_case: request_id
	Stack      string         // never copied
	Retries    int            // zero: not copied
	Response   *http.Response `json:"-"`
	secret     string
}

func (e *sdkError) Error() string { return "sdk: " + e.Code }

func TestLibraryErrorFields(t *testing.T) {
	err := &sdkError{StatusCode: 404, Code: "object_not_found", RequestID: "req_1", Stack: "at x", secret: "s",
		Response: &http.Response{StatusCode: 404, Header: http.Header{"X-Request-Id": {"req_1"}}}}
	m := rawOf(t, err, Hints{})
	if m["status_code"] != float64(404) || m["code"] != "object_not_found" || m["request_id"] != "req_1" {
		t.Fatalf("%v", m)
	}
	for _, k := range []string{"stack", "retries", "secret"} {
		if _, ok := m[k]; ok {
			t.Fatalf("%s copied: %v", k, m)
		}
	}
	if r := m["response"].(map[string]any); r["status"] != float64(404) {
		t.Fatalf("%v", m)
	}
	if n := classified(t, err); n.Code != CodeNotFound || n.HTTPStatus != 404 {
		t.Fatalf("%+v", n)
	}
}

// grpcStatus and grpcError have the shape of google.golang.org/grpc's
// *status.Status and its error (read by reflection, no dependency).
type grpcCode uint32
type grpcStatus struct {
	code grpcCode
	msg  string
}

func (s *grpcStatus) Code() grpcCode         { return s.code }
func (s *grpcStatus) Message() string        { return s.msg }
func (s *grpcStatus) String() string         { return s.msg }
func (e *grpcError) GRPCStatus() *grpcStatus { return e.s }
func (e *grpcError) Error() string {
	return fmt.Sprintf("rpc error: code = %d desc = %s", e.s.code, e.s.msg)
}

type grpcError struct{ s *grpcStatus }

func TestGRPCStatusErrors(t *testing.T) {
	err := &grpcError{&grpcStatus{code: 8, msg: "quota exceeded for today"}}
	if m := rawOf(t, err, Hints{}); m["code"] != float64(8) {
		t.Fatalf("%v", m)
	}
	if n := classified(t, &grpcError{&grpcStatus{code: 14, msg: "connection reset"}}); n.Code != CodeUnavailable || !n.Retryable {
		t.Fatalf("%+v", n)
	}
}

func TestToolErrorAndErrorf(t *testing.T) {
	base := errors.New("geocoder: 0 results")
	err := Errorf(CodeNotFound, "no city named %q: %w", "Atlantis", base)
	if err.Err != base || err.Message != `no city named "Atlantis": geocoder: 0 results` {
		t.Fatalf("%+v", err)
	}
	n := classified(t, err)
	if n.Code != CodeNotFound || !n.Expected {
		t.Fatalf("%+v", n)
	}
	// Wrapped: still the author's.
	m := rawOf(t, fmt.Errorf("tool: %w", err), Hints{})
	if c := m["cause"].(map[string]any); c["name"] != "ToolError" || c["expected"] != true {
		t.Fatalf("%v", m)
	}
}

func TestBoundsAndCycles(t *testing.T) {
	// A cause chain deeper than 16 is cut.
	var err error = errors.New("root")
	for i := 0; i < 40; i++ {
		err = fmt.Errorf("level %d: %w", i, err)
	}
	depth := 0
	for m := rawOf(t, err, Hints{}); ; depth++ {
		c, ok := m["cause"].(map[string]any)
		if !ok {
			break
		}
		m = c
		if depth > 20 {
			t.Fatal("not cut")
		}
	}
	if depth != 17 {
		t.Fatalf("cut at depth %d", depth)
	}
	// A slice holding itself, a pointer cycle.
	type node struct {
		Name string
		Next *node
	}
	a := &node{Name: "a"}
	a.Next = a
	m := rawOf(t, &caseError{name: "E", message: "m", props: map[string]any{"node": a}}, Hints{})
	if m["node"].(map[string]any)["Next"] != cut {
		t.Fatalf("%v", m)
	}
	// Invalid UTF-8 in a message is replaced, not passed to the core.
	n := classified(t, errors.New("bad \xff byte"))
	if n.Message != "bad \uFFFD byte" {
		t.Fatalf("%q", n.Message)
	}
}

func TestNilAndValues(t *testing.T) {
	if got := string(ToRawError(nil, Hints{})); got != "null" {
		t.Fatal(got)
	}
	if got := string(ToRawError(nil, Hints{Tool: "x"})); got != `{"tool":"x"}` {
		t.Fatal(got)
	}
	var nilErr *apiError
	if got := string(ToRawError(error(nilErr), Hints{})); got != "null" {
		t.Fatal(got)
	}
	if got := string(ToRawError(404, Hints{})); got != "404" {
		t.Fatal(got)
	}
	if n := classified(t, "rate limit exceeded"); n.Code != CodeRateLimited {
		t.Fatalf("%+v", n)
	}
}

func TestSnakeCase(t *testing.T) {
	for in, want := range map[string]string{"StatusCode": "status_code", "HTTPStatus": "http_status", "URL": "url", "RequestID": "request_id", "Body": "body"} {
		if got := snakeCase(in); got != want {
			t.Errorf("%s: %s", in, got)
		}
	}
}

func TestRawJSONWithHints(t *testing.T) {
	got := string(ToRawError(json.RawMessage(`{"status":429,"big":12345678901234567890,"b":1,"a":2}`), Hints{Tool: "search"}))
	if got != `{"status":429,"big":12345678901234567890,"b":1,"a":2,"tool":"search"}` {
		t.Fatal(got)
	}
	n, err := Classify(json.RawMessage(`{"status":429}`), ClassifyOptions{Hints: Hints{Tool: "search"}})
	if err != nil || n.Code != CodeRateLimited || n.Tool != "search" {
		t.Fatalf("%+v %v", n, err)
	}
}
