package abi

import "context"

// Limits is the WIT `limits` record: each field an option<u32> (nil: the
// default). The core checks every range.
type Limits struct {
	MaxMessageChars  *uint32
	MaxStringChars   *uint32
	MaxDepth         *uint32
	MaxMembers       *uint32
	MaxRenderedBytes *uint32
}

// ClassifyOptions is the WIT `classify-options` record.
type ClassifyOptions struct {
	Now    *string // option<string>: RFC 3339
	Limits *Limits // option<limits>
	Rules  *string // option<string>: JSON text
}

// Layout of the parameters of classify-json and parse-json, passed in memory
// (their flat form is 2 + 3 + 11 + 3 = 19 core values, over the limit of 16):
//
//	tuple<string, classify-options>            size 76, align 4
//	  0  raw: string                           {ptr, len}
//	  8  options.now: option<string>           disc u8 @8,  {ptr, len} @12
//	 20  options.limits: option<limits>        disc u8 @20, record @24
//	       24 + 8*i: option<u32>               disc u8, value u32 @+4 (i = field index)
//	 64  options.rules: option<string>         disc u8 @64, {ptr, len} @68
const (
	classifyParamsSize  = 76
	classifyParamsAlign = 4
)

// Layout of result<string, error> in the return area (size 16, align 4):
//
//	0  disc u8: 0 ok, 1 err
//	4  ok: string {ptr, len}
//	4  err: error variant: case u8 @4, string {ptr, len} @8
//
// result<tuple<string, string>, error>: the same, the ok tuple's strings at 4
// and 12.

func (in *Instance) lowerOptString(ctx context.Context, base uint32, s *string) error {
	if s == nil {
		in.mem.WriteByte(base, 0)
		return nil
	}
	ptr, n, err := in.lowerString(ctx, *s)
	if err != nil {
		return err
	}
	in.mem.WriteByte(base, 1)
	in.mem.WriteUint32Le(base+4, ptr)
	in.mem.WriteUint32Le(base+8, n)
	return nil
}

// callClassifyLike calls classify-json or parse-json: (raw, options) → result<string, error>.
func (in *Instance) callClassifyLike(ctx context.Context, fn int, raw string, o ClassifyOptions) (string, error) {
	// The parameter block, then each string; a later allocation never
	// touches an earlier block (memory.grow moves no address).
	params, err := in.alloc(ctx, classifyParamsAlign, classifyParamsSize)
	if err != nil {
		return "", err
	}
	ptr, n, err := in.lowerString(ctx, raw)
	if err != nil {
		return "", err
	}
	in.mem.WriteUint32Le(params, ptr)
	in.mem.WriteUint32Le(params+4, n)
	if err := in.lowerOptString(ctx, params+8, o.Now); err != nil {
		return "", err
	}
	if o.Limits == nil {
		in.mem.WriteByte(params+20, 0)
	} else {
		in.mem.WriteByte(params+20, 1)
		fields := [5]*uint32{o.Limits.MaxMessageChars, o.Limits.MaxStringChars, o.Limits.MaxDepth, o.Limits.MaxMembers, o.Limits.MaxRenderedBytes}
		for i, v := range fields {
			at := params + 24 + 8*uint32(i)
			if v == nil {
				in.mem.WriteByte(at, 0)
			} else {
				in.mem.WriteByte(at, 1)
				in.mem.WriteUint32Le(at+4, *v)
			}
		}
	}
	if err := in.lowerOptString(ctx, params+64, o.Rules); err != nil {
		return "", err
	}
	ret, err := in.call(ctx, fn, uint64(params))
	if err != nil {
		return "", err
	}
	return in.liftResultString(ctx, fn, ret)
}

// call2 calls a function of two strings (flat: ptr, len, ptr, len).
func (in *Instance) call2(ctx context.Context, fn int, a, b string) (uint32, error) {
	pa, na, err := in.lowerString(ctx, a)
	if err != nil {
		return 0, err
	}
	pb, nb, err := in.lowerString(ctx, b)
	if err != nil {
		return 0, err
	}
	return in.call(ctx, fn, uint64(pa), uint64(na), uint64(pb), uint64(nb))
}

// liftResultString reads a result<string, error> and runs the post-return.
func (in *Instance) liftResultString(ctx context.Context, fn int, ret uint32) (string, error) {
	r := reader{mem: in.mem}
	var out string
	var coreErr *CoreError
	if r.u8(ret) == 0 {
		out = r.str(ret + 4)
	} else {
		coreErr = &CoreError{Case: ErrorCase(r.u8(ret + 4)), Message: r.str(ret + 8)}
	}
	if err := in.finish(ctx, fn, ret, &r); err != nil {
		return "", err
	}
	if coreErr != nil {
		return "", coreErr
	}
	return out, nil
}

// ClassifyJSON calls classify-json: raw-error JSON text → the normalized
// error as canonical JSON text.
func (in *Instance) ClassifyJSON(ctx context.Context, raw string, o ClassifyOptions) (string, error) {
	return in.callClassifyLike(ctx, fnClassifyJSON, raw, o)
}

// ParseJSON calls parse-json: a tool result as JSON text → the normalized
// error as canonical JSON text, or `null`.
func (in *Instance) ParseJSON(ctx context.Context, raw string, o ClassifyOptions) (string, error) {
	return in.callClassifyLike(ctx, fnParseJSON, raw, o)
}

// ClassifyRenderJSON calls classify-render-json: raw-error JSON text and the
// render options as a JSON object → the rendered JSON text.
func (in *Instance) ClassifyRenderJSON(ctx context.Context, raw, options string) (string, error) {
	ret, err := in.call2(ctx, fnClassifyRenderJSON, raw, options)
	if err != nil {
		return "", err
	}
	return in.liftResultString(ctx, fnClassifyRenderJSON, ret)
}

// RenderJSON calls render-json: a normalized error as canonical JSON text and
// the render options as a JSON object → the rendered JSON text.
func (in *Instance) RenderJSON(ctx context.Context, normalized, options string) (string, error) {
	ret, err := in.call2(ctx, fnRenderJSON, normalized, options)
	if err != nil {
		return "", err
	}
	return in.liftResultString(ctx, fnRenderJSON, ret)
}

// ClassifyRenderWithLogJSON calls classify-render-with-log-json: one
// classification, rendered as the log record and as the result the options
// ask for. Returns (record, result).
func (in *Instance) ClassifyRenderWithLogJSON(ctx context.Context, raw, options string) (string, string, error) {
	fn := fnClassifyRenderWithLogJSON
	ret, err := in.call2(ctx, fn, raw, options)
	if err != nil {
		return "", "", err
	}
	r := reader{mem: in.mem}
	var record, result string
	var coreErr *CoreError
	if r.u8(ret) == 0 {
		record, result = r.str(ret+4), r.str(ret+12)
	} else {
		coreErr = &CoreError{Case: ErrorCase(r.u8(ret + 4)), Message: r.str(ret + 8)}
	}
	if err := in.finish(ctx, fn, ret, &r); err != nil {
		return "", "", err
	}
	if coreErr != nil {
		return "", "", coreErr
	}
	return record, result, nil
}

// CodeInfo is the WIT `code-info` record (the enums as their case indexes).
type CodeInfo struct {
	Code        uint8
	Name        string
	Category    uint8
	HTTPStatus  uint16
	GRPCCode    uint8
	JSONRPCCode int32
	Retryable   bool
	Doc         string
}

// Taxonomy calls taxonomy: list<code-info>. The return area holds the list
// {ptr, len}; each element (size 36, align 4) is: code u8 @0, name string @4,
// category u8 @12, http-status u16 @14, grpc-code u8 @16, jsonrpc-code s32
// @20, retryable bool @24, doc string @28.
func (in *Instance) Taxonomy(ctx context.Context) ([]CodeInfo, error) {
	ret, err := in.call(ctx, fnTaxonomy)
	if err != nil {
		return nil, err
	}
	r := reader{mem: in.mem}
	base, n := r.u32(ret), r.u32(ret+4)
	out := make([]CodeInfo, 0, min(n, 64))
	for i := uint32(0); i < n && r.err == nil; i++ {
		e := base + 36*i
		out = append(out, CodeInfo{
			Code:        r.u8(e),
			Name:        r.str(e + 4),
			Category:    r.u8(e + 12),
			HTTPStatus:  r.u16(e + 14),
			GRPCCode:    r.u8(e + 16),
			JSONRPCCode: int32(r.u32(e + 20)),
			Retryable:   r.u8(e+24) != 0,
			Doc:         r.str(e + 28),
		})
	}
	if err := in.finish(ctx, fnTaxonomy, ret, &r); err != nil {
		return nil, err
	}
	return out, nil
}

// Schema calls schema(profile) → string; profile is the enum's case index.
func (in *Instance) Schema(ctx context.Context, profile uint8) (string, error) {
	ret, err := in.call(ctx, fnSchema, uint64(profile))
	if err != nil {
		return "", err
	}
	r := reader{mem: in.mem}
	out := r.str(ret)
	if err := in.finish(ctx, fnSchema, ret, &r); err != nil {
		return "", err
	}
	return out, nil
}

// Finish is the cli interface's `finish` record.
type Finish struct {
	Stdout string
	Stderr string
	Status uint8
}

// Plan is the cli interface's `plan` variant: Finish, or Lines with the
// command text.
type Plan struct {
	Finish *Finish
	Lines  string
}

// OutputLine is the cli interface's `output-line` record.
type OutputLine struct {
	Text   string
	Failed bool
}

// CliStart calls cli start(args: list<string>) → plan. The list is an array
// of string {ptr, len} (size 8 each, align 4). The plan in the return area:
// case u8 @0; finish: stdout @4, stderr @12, status u8 @20; lines: string @4.
func (in *Instance) CliStart(ctx context.Context, args []string) (Plan, error) {
	list, err := in.alloc(ctx, 4, 8*uint32(len(args)))
	if err != nil {
		return Plan{}, err
	}
	for i, a := range args {
		ptr, n, err := in.lowerString(ctx, a)
		if err != nil {
			return Plan{}, err
		}
		in.mem.WriteUint32Le(list+8*uint32(i), ptr)
		in.mem.WriteUint32Le(list+8*uint32(i)+4, n)
	}
	ret, err := in.call(ctx, fnCliStart, uint64(list), uint64(len(args)))
	if err != nil {
		return Plan{}, err
	}
	r := reader{mem: in.mem}
	var plan Plan
	if r.u8(ret) == 0 {
		plan.Finish = &Finish{Stdout: r.str(ret + 4), Stderr: r.str(ret + 12), Status: r.u8(ret + 20)}
	} else {
		plan.Lines = r.str(ret + 4)
	}
	if err := in.finish(ctx, fnCliStart, ret, &r); err != nil {
		return Plan{}, err
	}
	return plan, nil
}

// CliLine calls cli line(command, line, number: u64) → option<output-line>:
// disc u8 @0, text string @4, failed bool @12. ok is false for none (a
// blank line).
func (in *Instance) CliLine(ctx context.Context, command, line string, number uint64) (out OutputLine, ok bool, err error) {
	pc, nc, err := in.lowerString(ctx, command)
	if err != nil {
		return out, false, err
	}
	pl, nl, err := in.lowerString(ctx, line)
	if err != nil {
		return out, false, err
	}
	ret, err := in.call(ctx, fnCliLine, uint64(pc), uint64(nc), uint64(pl), uint64(nl), number)
	if err != nil {
		return out, false, err
	}
	r := reader{mem: in.mem}
	if ok = r.u8(ret) != 0; ok {
		out = OutputLine{Text: r.str(ret + 4), Failed: r.u8(ret+12) != 0}
	}
	if err := in.finish(ctx, fnCliLine, ret, &r); err != nil {
		return OutputLine{}, false, err
	}
	return out, ok, nil
}

// CliBadLine calls cli bad-line(skipped: u64, bytes: list<u8>, number: u64)
// → output-line: text string @0, failed bool @8.
func (in *Instance) CliBadLine(ctx context.Context, skipped uint64, bytes []byte, number uint64) (OutputLine, error) {
	ptr, n, err := in.lowerBytes(ctx, bytes)
	if err != nil {
		return OutputLine{}, err
	}
	ret, err := in.call(ctx, fnCliBadLine, skipped, uint64(ptr), uint64(n), number)
	if err != nil {
		return OutputLine{}, err
	}
	r := reader{mem: in.mem}
	out := OutputLine{Text: r.str(ret), Failed: r.u8(ret+8) != 0}
	if err := in.finish(ctx, fnCliBadLine, ret, &r); err != nil {
		return OutputLine{}, err
	}
	return out, nil
}
