package mcperrors

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"
)

// The converter's bounds, the same in every host (src/contract.rs).
const (
	convertMaxDepth  = 16
	convertMaxItems  = 100
	convertMaxString = 65536
	// ResponseBodyLimit is how much of an *http.Response's body ToRawError
	// reads (the rest stays readable).
	ResponseBodyLimit = 64 << 10
)

// neverCopied are fields never copied: stacks are not shown, request
// configurations carry credentials.
var neverCopied = map[string]bool{"stack": true, "traceback": true, "config": true, "request": true}

// Hints are what the tool author knows about an error, laid over the
// converted raw error (README "The raw-error input").
type Hints struct {
	// Tool is the tool that failed.
	Tool string
	// AppCode and AppType are the author's own code (GAPFILL_INFEASIBLE) and
	// type (infeasibility_error).
	AppCode string
	AppType string
	// Details are structured details: a map or struct (an object), or a string.
	Details any
	// Suggestions are recovery steps for the model.
	Suggestions []string
	// Expected marks a deliberate error whose message is safe to show.
	Expected bool
	// Retryable overrides the retry verdict (nil: the core decides).
	Retryable *bool
	// RetryAfter overrides the retry delay (0: the core decides), in whole
	// milliseconds rounded up.
	RetryAfter time.Duration
}

func (h Hints) isZero() bool {
	return h.Tool == "" && h.AppCode == "" && h.AppType == "" && h.Details == nil && len(h.Suggestions) == 0 &&
		!h.Expected && h.Retryable == nil && h.RetryAfter <= 0
}

// RawErrorer is implemented by an error that describes itself in the
// raw-error input's terms (README "The raw-error input"): its fields, such
// as "status", "headers", "body", "code" (a canonical code, a Node-style code
// or a number), "name", "details", "retryable", "retry_after_ms", "app_code",
// "expected", are laid over what the converter found. Values are converted
// as any value is (bounded, cycles cut).
//
//	func (e *APIError) RawError() map[string]any {
//		return map[string]any{"status": e.Status, "code": e.Code, "body": e.Body}
//	}
type RawErrorer interface {
	RawError() map[string]any
}

// ToolError is a deliberate error of a tool: its message is safe to show the
// model and is never masked. It carries the author's own code, type, details
// and recovery steps.
//
//	return nil, &mcperrors.ToolError{Message: "No city named " + city, Code: mcperrors.CodeNotFound}
type ToolError struct {
	Message string
	// Code is a canonical code, when the author knows it.
	Code Code
	// AppCode and AppType are the author's own code and type.
	AppCode string
	AppType string
	// Details are structured details: a map or struct, or a string.
	Details     any
	Suggestions []string
	// Retryable says whether retrying may work (nil: the core decides).
	Retryable *bool
	// RetryAfter is how long to wait before retrying, when known.
	RetryAfter time.Duration
	// Err is the cause, if any.
	Err error
}

func (e *ToolError) Error() string { return e.Message }

// Unwrap returns the cause.
func (e *ToolError) Unwrap() error { return e.Err }

// Errorf makes a *ToolError with a canonical code (empty: let the core
// decide) and a formatted message; a %w verb's error becomes its cause.
func Errorf(code Code, format string, args ...any) *ToolError {
	err := fmt.Errorf(format, args...)
	return &ToolError{Message: err.Error(), Code: code, Err: errors.Unwrap(err)}
}

// Bool returns a pointer to b, for Hints.Retryable and ToolError.Retryable.
func Bool(b bool) *bool { return &b }

// ToRawError converts any error or value into the raw-error input (JSON),
// with the hints on top. Nothing here decides what an error means; the core
// does. What is converted:
//
//   - every error: "name" (its Go type, e.g. "net.OpError"; none for
//     errors.New and fmt.Errorf errors) and "message" (its Error());
//     errors.Unwrap's error as "cause", and an Unwrap() []error's errors
//     (errors.Join, fmt.Errorf with several %w) as "errors";
//   - syscall.Errno as its Node-style "code" (ENOENT, ECONNREFUSED, …);
//     *os.PathError "op" and "path"; *os.LinkError; *os.SyscallError;
//     *net.OpError "op", "net", "addr"; *net.DNSError "host" and a code
//     (ENOTFOUND, ETIMEOUT, EAI_AGAIN); *url.Error "op" and "url";
//     context.DeadlineExceeded and context.Canceled by name;
//   - a StatusCode() int or HTTPStatusCode() int method as "status"; a
//     GRPCStatus() (gRPC status errors) as the numeric gRPC "code";
//   - the exported, non-zero fields of an error struct outside the standard
//     library (named as their json tag, else in snake_case; an
//     *http.Response field as "response" with its status and headers);
//   - RawErrorer's fields, on top;
//   - *ToolError as "ToolError", expected, with the author's fields;
//   - an *http.Response as "status", "headers" and "body" (up to
//     ResponseBodyLimit bytes, read and put back so the body stays readable);
//   - any other value as JSON data: strings (clipped at 65536 characters),
//     numbers (NaN and infinities as "NaN", "Infinity"), []byte (UTF-8 text,
//     else "[N bytes]"), maps, slices (100 items), structs, time.Time.
//
// Depth is bounded at 16 and cycles are cut; "stack", "traceback", "config"
// and "request" are never copied.
func ToRawError(v any, h Hints) json.RawMessage {
	c := &converter{}
	var value any
	func() {
		defer func() {
			if r := recover(); r != nil {
				value = object{{"message", safeString(v)}}
			}
		}()
		value = c.top(v)
	}()
	if !h.isZero() {
		var base object
		switch t := value.(type) {
		case object:
			base = t
		case nil:
		default:
			base = object{{"message", safeString(v)}}
			if s, ok := value.(string); ok {
				base = object{{"message", s}}
			}
		}
		hc := &converter{}
		if h.Tool != "" {
			base = base.set("tool", h.Tool)
		}
		if h.AppCode != "" {
			base = base.set("app_code", h.AppCode)
		}
		if h.AppType != "" {
			base = base.set("app_type", h.AppType)
		}
		if h.Details != nil {
			base = base.set("details", hc.plain(h.Details, 1))
		}
		if len(h.Suggestions) > 0 {
			base = base.set("suggestions", hc.plain(h.Suggestions, 1))
		}
		if h.Expected {
			base = base.set("expected", true)
		}
		if h.Retryable != nil {
			base = base.set("retryable", *h.Retryable)
		}
		if h.RetryAfter > 0 {
			base = base.set("retry_after_ms", durationMs(h.RetryAfter))
		}
		if base == nil {
			base = object{}
		}
		value = base
	}
	var b bytes.Buffer
	writeValue(&b, value)
	return json.RawMessage(b.Bytes())
}

func durationMs(d time.Duration) int64 {
	return int64((d + time.Millisecond - 1) / time.Millisecond)
}

func safeString(v any) (s string) {
	defer func() {
		if recover() != nil {
			s = "[unprintable]"
		}
	}()
	if e, ok := v.(error); ok {
		return e.Error()
	}
	return fmt.Sprint(v)
}

// object is a JSON object with its members in order.
type object []member

type member struct {
	k string
	v any
}

// set replaces k's value, or appends k.
func (o object) set(k string, v any) object {
	for i := range o {
		if o[i].k == k {
			o[i].v = v
			return o
		}
	}
	return append(o, member{k, v})
}

func (o object) has(k string) bool {
	for _, m := range o {
		if m.k == k {
			return true
		}
	}
	return false
}

// MarshalJSON writes the members in order.
func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	writeValue(&b, o)
	return b.Bytes(), nil
}

// writeValue writes a converted value: nil, bool, string, int64, uint64,
// float64, json.Number, json.RawMessage, object or []any.
func writeValue(b *bytes.Buffer, v any) {
	switch t := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case string:
		writeJSONString(b, t)
	case int64:
		b.WriteString(strconv.FormatInt(t, 10))
	case uint64:
		b.WriteString(strconv.FormatUint(t, 10))
	case float64:
		b.WriteString(strconv.FormatFloat(t, 'g', -1, 64))
	case json.Number:
		b.WriteString(string(t))
	case json.RawMessage:
		writeRawJSON(b, t)
	case object:
		b.WriteByte('{')
		for i, m := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONString(b, m.k)
			b.WriteByte(':')
			writeValue(b, m.v)
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, x := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			writeValue(b, x)
		}
		b.WriteByte(']')
	default:
		writeJSONString(b, fmt.Sprint(t))
	}
}

const cut = "[circular or too deep]"

type converter struct {
	seen []any // the errors and containers being converted (cycles)
}

func (c *converter) enter(v any) bool {
	for _, s := range c.seen {
		if same(s, v) {
			return false
		}
	}
	c.seen = append(c.seen, v)
	return true
}

func (c *converter) leave() { c.seen = c.seen[:len(c.seen)-1] }

// same is identity: pointers, maps and slices by address, other comparable
// values by ==.
func same(a, b any) (eq bool) {
	defer func() {
		if recover() != nil {
			eq = false
		}
	}()
	ta, tb := reflect.TypeOf(a), reflect.TypeOf(b)
	if ta != tb || ta == nil {
		return false
	}
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	switch va.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return va.Pointer() == vb.Pointer() && (va.Kind() != reflect.Slice || va.Len() == vb.Len())
	}
	return ta.Comparable() && a == b
}

func clip(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if len(s) <= convertMaxString {
		return s
	}
	n := 0
	for i := range s {
		if n == convertMaxString {
			return s[:i] + "…[truncated]"
		}
		n++
	}
	return s
}

// top converts the value given to ToRawError.
func (c *converter) top(v any) any {
	if r, ok := v.(*http.Response); ok && r != nil {
		return responseRaw(r, true)
	}
	if e, ok := v.(error); ok && !isNil(v) {
		return c.err(e, 0)
	}
	return c.plain(v, 0)
}

func isNil(v any) bool {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface, reflect.Func, reflect.Chan:
		return rv.IsNil()
	}
	return false
}

// responseRaw is an HTTP response's status, headers and (when readBody)
// body, read up to ResponseBodyLimit and put back in front of the rest.
func responseRaw(r *http.Response, readBody bool) object {
	o := object{{"status", int64(r.StatusCode)}}
	if len(r.Header) > 0 {
		o = append(o, member{"headers", headerPairs(r.Header)})
	}
	if readBody && r.Body != nil && r.Body != http.NoBody {
		data, err := io.ReadAll(io.LimitReader(r.Body, ResponseBodyLimit))
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(data), r.Body), r.Body}
		if len(data) > 0 || err == nil {
			o = append(o, member{"body", bytesText(data)})
		}
	}
	return o
}

// headerPairs is a header as [name, value] pairs, names sorted, every value
// its own pair.
func headerPairs(h http.Header) []any {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	sort.Strings(names)
	out := []any{}
	for _, k := range names {
		for _, v := range h[k] {
			if len(out) == convertMaxItems {
				return out
			}
			out = append(out, []any{clip(k), clip(v)})
		}
	}
	return out
}

func bytesText(b []byte) string {
	if utf8.Valid(b) {
		return clip(string(b))
	}
	return fmt.Sprintf("[%d bytes]", len(b))
}

// err converts an error.
func (c *converter) err(e error, depth int) any {
	if depth > convertMaxDepth || !c.enter(e) {
		return object{{"message", cut}}
	}
	defer c.leave()
	if te, ok := e.(*ToolError); ok && te != nil {
		return c.toolError(te, depth)
	}
	var o object
	if name := errorName(e); name != "" {
		o = append(o, member{"name", name})
	}
	o = append(o, member{"message", clip(safeString(e))})
	o = c.known(o, e)
	o = c.methods(o, e)
	_, unwraps := e.(interface{ Unwrap() error })
	_, unwrapsMany := e.(interface{ Unwrap() []error })
	if !isStd(e) {
		o = c.fields(o, reflect.ValueOf(e), depth, unwraps || unwrapsMany)
	}
	if r, ok := e.(RawErrorer); ok {
		o = c.rawFields(o, r, depth)
	}
	if unwraps {
		if cause := errors.Unwrap(e); cause != nil && !isNil(cause) && !o.has("cause") {
			o = append(o, member{"cause", c.err(cause, depth+1)})
		}
	}
	if m, ok := e.(interface{ Unwrap() []error }); ok && !o.has("errors") {
		var list []any
		for _, x := range m.Unwrap() {
			if len(list) == convertMaxItems {
				break
			}
			if x != nil {
				list = append(list, c.err(x, depth+1))
			}
		}
		o = append(o, member{"errors", list})
	}
	return o
}

func (c *converter) toolError(e *ToolError, depth int) object {
	o := object{{"name", "ToolError"}, {"message", clip(e.Message)}, {"expected", true}}
	if e.Code != "" {
		o = append(o, member{"code", string(e.Code)})
	}
	if e.AppCode != "" {
		o = append(o, member{"app_code", e.AppCode})
	}
	if e.AppType != "" {
		o = append(o, member{"app_type", e.AppType})
	}
	if e.Details != nil {
		o = append(o, member{"details", c.plain(e.Details, depth+1)})
	}
	if len(e.Suggestions) > 0 {
		o = append(o, member{"suggestions", c.plain(e.Suggestions, depth+1)})
	}
	if e.Retryable != nil {
		o = append(o, member{"retryable", *e.Retryable})
	}
	if e.RetryAfter > 0 {
		o = append(o, member{"retry_after_ms", durationMs(e.RetryAfter)})
	}
	if e.Err != nil {
		o = append(o, member{"cause", c.err(e.Err, depth+1)})
	}
	return o
}

// anonymous are the standard library's plain error types: no name.
var anonymous = map[string]bool{
	"errors.errorString": true, "fmt.wrapError": true, "fmt.wrapErrors": true, "errors.joinError": true,
}

// errorName is the error's Go type as package.Type ("net.OpError"), or the
// names the core knows for the context errors; "" for plain errors.
func errorName(e error) string {
	switch {
	case e == context.DeadlineExceeded:
		return "context.DeadlineExceeded"
	case e == context.Canceled:
		return "context.Canceled"
	}
	name := strings.TrimLeft(reflect.TypeOf(e).String(), "*")
	if anonymous[name] {
		return ""
	}
	return name
}

// isStd reports whether e's type is the standard library's (no dot in its
// package path's first element), whose fields are not copied.
func isStd(e error) bool {
	t := reflect.TypeOf(e)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	path := t.PkgPath()
	if path == "" || path == "main" {
		return path == ""
	}
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// known adds the fields of the standard library's errors.
func (c *converter) known(o object, e error) object {
	switch t := e.(type) {
	case syscall.Errno:
		if name := errnoName(t); name != "" {
			o = o.set("code", name)
		}
	case *fs.PathError:
		o = o.set("op", clip(t.Op)).set("path", clip(t.Path))
	case *os.LinkError:
		o = o.set("op", clip(t.Op)).set("old", clip(t.Old)).set("new", clip(t.New))
	case *os.SyscallError:
		o = o.set("syscall", clip(t.Syscall))
	case *net.OpError:
		o = o.set("op", clip(t.Op))
		if t.Net != "" {
			o = o.set("net", clip(t.Net))
		}
		if t.Addr != nil && !isNil(t.Addr) {
			o = o.set("addr", clip(t.Addr.String()))
		}
	case *net.DNSError:
		o = o.set("host", clip(t.Name))
		if t.Server != "" {
			o = o.set("server", clip(t.Server))
		}
		switch {
		case t.IsNotFound:
			o = o.set("code", "ENOTFOUND")
		case t.IsTimeout:
			o = o.set("code", "ETIMEOUT")
		case t.IsTemporary:
			o = o.set("code", "EAI_AGAIN")
		}
	case *url.Error:
		o = o.set("op", clip(t.Op)).set("url", clip(t.URL))
	}
	return o
}

// methods reads the status and gRPC methods many libraries' errors have.
func (c *converter) methods(o object, e error) object {
	for _, m := range []string{"StatusCode", "HTTPStatusCode"} {
		if o.has("status") {
			break
		}
		if s, ok := callIntMethod(e, m); ok && s >= 100 && s <= 599 {
			o = o.set("status", s)
		}
	}
	// gRPC status errors: GRPCStatus() *status.Status, whose Code() is a
	// codes.Code (uint32). Read by reflection: no dependency on grpc.
	if mv := reflect.ValueOf(e).MethodByName("GRPCStatus"); mv.IsValid() && mv.Type().NumIn() == 0 && mv.Type().NumOut() == 1 {
		func() {
			defer func() { _ = recover() }()
			st := mv.Call(nil)[0]
			if isNilValue(st) {
				return
			}
			code := st.MethodByName("Code")
			if code.IsValid() && code.Type().NumIn() == 0 && code.Type().NumOut() == 1 {
				if v := code.Call(nil)[0]; v.CanUint() && !o.has("code") {
					o = o.set("code", int64(v.Uint()))
					// The status's message as grpc-js names it (`details`): what
					// marks the number as a gRPC status code for the core.
					msg := st.MethodByName("Message")
					if msg.IsValid() && msg.Type().NumIn() == 0 && msg.Type().NumOut() == 1 && !o.has("details") {
						if m := msg.Call(nil)[0]; m.Kind() == reflect.String {
							o = o.set("details", m.String())
						}
					}
				}
			}
		}()
	}
	return o
}

func isNilValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface, reflect.Func, reflect.Chan:
		return v.IsNil()
	}
	return !v.IsValid()
}

func callIntMethod(e error, name string) (n int64, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	mv := reflect.ValueOf(e).MethodByName(name)
	if !mv.IsValid() || mv.Type().NumIn() != 0 || mv.Type().NumOut() != 1 || !mv.Type().Out(0).ConvertibleTo(reflect.TypeOf(0)) {
		return 0, false
	}
	v := mv.Call(nil)[0]
	switch {
	case v.CanInt():
		return v.Int(), true
	case v.CanUint():
		return int64(v.Uint()), true
	}
	return 0, false
}

// fields copies the exported, non-zero fields of an error struct (their json
// name, else snake_case). Error-valued fields are the cause when the error
// unwraps, else converted as errors.
func (c *converter) fields(o object, v reflect.Value, depth int, unwraps bool) object {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return o
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return o
	}
	t := v.Type()
	n := 0
	for i := 0; i < t.NumField() && n < convertMaxItems; i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		fv := v.Field(i)
		if fv.IsZero() {
			continue
		}
		name, skip := fieldName(f)
		if r, ok := fv.Interface().(*http.Response); ok {
			if !o.has("response") {
				o = append(o, member{"response", responseRaw(r, false)})
			}
			continue
		}
		if skip || neverCopied[name] || o.has(name) {
			continue
		}
		if _, isErr := fv.Interface().(error); isErr && unwraps {
			continue
		}
		switch fv.Kind() {
		case reflect.Func, reflect.Chan, reflect.UnsafePointer:
			continue
		}
		o = append(o, member{name, c.plain(fv.Interface(), depth+1)})
		n++
	}
	return o
}

// fieldName is an error struct's field as a raw-error field: its json tag's
// name, else its name in snake_case (StatusCode → status_code, the raw
// error's own spelling); skip for `json:"-"`.
func fieldName(f reflect.StructField) (string, bool) {
	if tag, ok := f.Tag.Lookup("json"); ok {
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" && tag == "-" {
			return "", true
		}
		if name != "" {
			return name, false
		}
	}
	return snakeCase(f.Name), false
}

// jsonFieldName is a struct field's name as encoding/json writes it (for
// data inside an error, such as details); skip for `json:"-"`.
func jsonFieldName(f reflect.StructField) (string, bool) {
	if tag, ok := f.Tag.Lookup("json"); ok {
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" && tag == "-" {
			return "", true
		}
		if name != "" {
			return name, false
		}
	}
	return f.Name, false
}

// snakeCase: StatusCode → status_code, HTTPStatus → http_status, URL → url.
func snakeCase(s string) string {
	runes := []rune(s)
	var b strings.Builder
	for i, r := range runes {
		if unicode.IsUpper(r) {
			if i > 0 && (unicode.IsLower(runes[i-1]) || i+1 < len(runes) && unicode.IsLower(runes[i+1]) && unicode.IsUpper(runes[i-1])) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// rawFields lays a RawErrorer's fields over o (keys in sorted order: a Go
// map has none of its own).
func (c *converter) rawFields(o object, r RawErrorer, depth int) object {
	var m map[string]any
	func() {
		defer func() { _ = recover() }()
		m = r.RawError()
	}()
	keys := make([]string, 0, len(m))
	for k := range m {
		if !neverCopied[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	if len(keys) > convertMaxItems {
		keys = keys[:convertMaxItems]
	}
	for _, k := range keys {
		v := m[k]
		if k == "cause" || k == "errors" {
			o = o.set(k, c.causeValue(v, depth))
			continue
		}
		o = o.set(k, c.plain(v, depth+1))
	}
	return o
}

// causeValue converts a "cause" or "errors" value given by a RawErrorer.
func (c *converter) causeValue(v any, depth int) any {
	if e, ok := v.(error); ok && !isNil(v) {
		return c.err(e, depth+1)
	}
	if list, ok := v.([]error); ok {
		out := []any{}
		for _, e := range list {
			if len(out) == convertMaxItems {
				break
			}
			out = append(out, c.err(e, depth+1))
		}
		return out
	}
	return c.plain(v, depth+1)
}

// plain converts any value to JSON data, bounded in depth and size, cycles cut.
func (c *converter) plain(v any, depth int) any {
	switch t := v.(type) {
	case nil:
		return nil
	case error:
		if isNil(v) {
			return nil
		}
		return c.err(t, depth+1)
	case string:
		return clip(t)
	case bool:
		return t
	case json.Number:
		return t
	case json.RawMessage:
		if v, ok := decodeOrdered(t); ok {
			return v
		}
		return bytesText(t)
	case []byte:
		return bytesText(t)
	case time.Time:
		return t.Format(time.RFC3339Nano)
	case time.Duration:
		return t.String()
	case *url.URL:
		if t == nil {
			return nil
		}
		return clip(t.String())
	case http.Header:
		return headerPairs(t)
	case *http.Response:
		if t == nil {
			return nil
		}
		return responseRaw(t, false)
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return rv.Uint()
	case reflect.Float32, reflect.Float64:
		f := rv.Float()
		switch {
		case math.IsNaN(f):
			return "NaN"
		case math.IsInf(f, 1):
			return "Infinity"
		case math.IsInf(f, -1):
			return "-Infinity"
		}
		if rv.Kind() == reflect.Float32 {
			return json.Number(strconv.FormatFloat(f, 'g', -1, 32))
		}
		return f
	case reflect.Bool:
		return rv.Bool()
	case reflect.String:
		return clip(rv.String())
	case reflect.Func, reflect.Chan, reflect.UnsafePointer, reflect.Complex64, reflect.Complex128:
		return nil
	}
	if m, ok := v.(json.Marshaler); ok && !isNil(v) {
		return marshalled(m)
	}
	if m, ok := v.(encoding.TextMarshaler); ok && !isNil(v) {
		text, err := m.MarshalText()
		if err != nil {
			return "[unserializable]"
		}
		return clip(string(text))
	}
	if depth > convertMaxDepth {
		return cut
	}
	switch rv.Kind() {
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return nil
		}
		if !c.enter(v) {
			return cut
		}
		defer c.leave()
		return c.plain(rv.Elem().Interface(), depth)
	case reflect.Map:
		if rv.IsNil() {
			return nil
		}
		if !c.enter(v) {
			return cut
		}
		defer c.leave()
		type kv struct {
			k string
			v reflect.Value
		}
		entries := make([]kv, 0, rv.Len())
		iter := rv.MapRange()
		for iter.Next() {
			entries = append(entries, kv{fmt.Sprint(iter.Key().Interface()), iter.Value()})
		}
		sort.Slice(entries, func(i, j int) bool { return entries[i].k < entries[j].k })
		o := object{}
		for _, e := range entries {
			if len(o) == convertMaxItems {
				break
			}
			o = append(o, member{clip(e.k), c.plain(e.v.Interface(), depth+1)})
		}
		return o
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice {
			if rv.IsNil() {
				return nil
			}
			if !c.enter(v) {
				return cut
			}
			defer c.leave()
		}
		out := make([]any, 0, min(rv.Len(), convertMaxItems))
		for i := 0; i < rv.Len() && i < convertMaxItems; i++ {
			out = append(out, c.plain(rv.Index(i).Interface(), depth+1))
		}
		return out
	case reflect.Struct:
		return c.structValue(rv, depth)
	}
	return clip(fmt.Sprint(v))
}

func (c *converter) structValue(rv reflect.Value, depth int) object {
	t := rv.Type()
	o := object{}
	for i := 0; i < t.NumField() && len(o) < convertMaxItems; i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, skip := jsonFieldName(f)
		if skip {
			continue
		}
		fv := rv.Field(i)
		if tag := f.Tag.Get("json"); strings.Contains(tag, ",omitempty") && fv.IsZero() {
			continue
		}
		switch fv.Kind() {
		case reflect.Func, reflect.Chan, reflect.UnsafePointer:
			continue
		}
		o = o.set(name, c.plain(fv.Interface(), depth+1))
	}
	return o
}

// marshalled is a json.Marshaler's JSON (bounded), or "[unserializable]".
func marshalled(m json.Marshaler) (out any) {
	defer func() {
		if recover() != nil {
			out = "[unserializable]"
		}
	}()
	b, err := m.MarshalJSON()
	if err != nil || !json.Valid(b) {
		return "[unserializable]"
	}
	if len(b) > convertMaxString {
		return clip(string(b))
	}
	return json.RawMessage(b)
}

// newErrorID is 8 random hex characters.
func newErrorID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// decodeOrdered decodes JSON keeping its member order and number literals
// (strings clipped); ok is false for text that is not JSON.
func decodeOrdered(raw []byte) (v any, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var walk func(depth int) (any, error)
	walk = func(depth int) (any, error) {
		if depth > 512 {
			return nil, errors.New("too deep")
		}
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case json.Delim:
			if t == '{' {
				o := object{}
				for dec.More() {
					k, err := dec.Token()
					if err != nil {
						return nil, err
					}
					val, err := walk(depth + 1)
					if err != nil {
						return nil, err
					}
					o = o.set(clip(k.(string)), val)
				}
				_, err := dec.Token()
				return o, err
			}
			list := []any{}
			for dec.More() {
				val, err := walk(depth + 1)
				if err != nil {
					return nil, err
				}
				list = append(list, val)
			}
			_, err := dec.Token()
			return list, err
		case string:
			return clip(t), nil
		}
		return tok, nil
	}
	v, err := walk(0)
	if err != nil {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false
	}
	return v, true
}
