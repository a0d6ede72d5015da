package chat

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// DecodeOptions widen the allow-list, by name only.
type DecodeOptions struct {
	// Passthrough names fields the agent does not know that an operator allows anyway (vLLM's
	// "top_k", Ollama's "options"): a bare name is a top-level field, "messages.NAME" a field of
	// every message. Their values are free-form JSON whose strings are redacted like any text.
	Passthrough []string `yaml:"passthrough_fields"`
	// AllowParts names content part types besides text and refusal that may leave the branch
	// (image_url, input_audio, file). Their data cannot be checked for personal data.
	AllowParts []string `yaml:"allow_content_parts"`
	// KeepUnknown keeps every unknown top-level and message field as if allowed by name. Only
	// the dc-gateway sets it: it reads what an edge built, which may carry the fields that edge's
	// operator allowed.
	KeepUnknown bool `yaml:"-"`
}

// Validate lists every problem of an operator's allowances at once.
func (o DecodeOptions) Validate() error {
	var errs []error
	for i, p := range o.Passthrough {
		scope, name, nested := strings.Cut(p, ".")
		t := reflect.TypeFor[Request]()
		if nested {
			if scope != "messages" {
				errs = append(errs, fmt.Errorf("egress.passthrough_fields[%d]: %q: only top-level names and messages.NAME are allowed", i, p))
				continue
			}
			t = reflect.TypeFor[Message]()
		} else {
			name = p
		}
		ok := name != "" && len(name) <= 64
		for k := 0; ok && k < len(name); k++ {
			c := name[k]
			ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
		}
		if !ok {
			errs = append(errs, fmt.Errorf("egress.passthrough_fields[%d]: %q is not a field name (letters, digits, _ and -)", i, p))
			continue
		}
		for _, f := range infoOf(t).fields {
			if strings.EqualFold(f.name, name) {
				errs = append(errs, fmt.Errorf("egress.passthrough_fields[%d]: %q is an allow-listed field already, read with its own rule", i, p))
			}
		}
	}
	for i, p := range o.AllowParts {
		if !slices.Contains(PartTypesNeedingConsent, p) {
			errs = append(errs, fmt.Errorf("egress.allow_content_parts[%d]: %q is not one of %s", i, p, strings.Join(PartTypesNeedingConsent, ", ")))
		}
	}
	return errors.Join(errs...)
}

// PartTypesNeedingConsent are the content part types refused unless allowed by the operator.
var PartTypesNeedingConsent = []string{"image_url", "input_audio", "file"}

// Error codes of the request decoder (stable: clients and runbooks branch on them).
const (
	CodeInvalidJSON        = "invalid_json"
	CodeInvalidFieldCasing = "invalid_field_casing"
	CodeUnknownField       = "unknown_field"
	CodeDuplicateField     = "duplicate_field"
	CodeInvalidType        = "invalid_type"
	CodeInvalidValue       = "invalid_value"
	CodeOutOfRange         = "value_out_of_range"
	CodeInvalidIdentifier  = "invalid_identifier"
	CodeUnsupportedContent = "unsupported_content"
	CodeTooDeep            = "too_deep"
)

// DecodeRequest reads a chat completions body strictly: keys must match a known field exactly
// (a key that differs only in case is refused, never read), unknown keys are refused unless
// allowed by name, duplicate keys are refused, every value is checked against its field's rule.
// The error says which field and why, and never quotes a value.
func DecodeRequest(body []byte, o DecodeOptions) (*Request, *Error) {
	v, err := ParseJSON(body)
	if err != nil {
		return nil, parseError(err)
	}
	if v.Kind != KindObject {
		return nil, InvalidRequest(CodeInvalidJSON, "", "the request body must be a JSON object")
	}
	d := decoder{o: &o}
	var r Request
	if e := d.object(&v, reflect.ValueOf(&r).Elem(), ""); e != nil {
		return nil, e
	}
	if e := r.Validate(); e != nil {
		return nil, e
	}
	return &r, nil
}

func parseError(err error) *Error {
	var je *jsonError
	if errors.As(err, &je) {
		switch {
		case errors.Is(je.err, errDuplicateKey):
			return InvalidRequest(CodeDuplicateField, joinPath(je.path, safeName(je.key)),
				fmt.Sprintf("field %s appears twice in %s; send each field once", quoteName(je.key), where(je.path)))
		case errors.Is(je.err, errTooDeep):
			return InvalidRequest(CodeTooDeep, je.path, fmt.Sprintf("the request is nested deeper than %d levels", MaxJSONDepth))
		}
		return InvalidRequest(CodeInvalidJSON, "", "the request body is not valid JSON: "+je.Error())
	}
	return InvalidRequest(CodeInvalidJSON, "", "the request body is not valid JSON")
}

type decoder struct{ o *DecodeOptions }

// fieldInfo is one allow-listed field of a struct type.
type fieldInfo struct {
	name  string
	index int
	rule  rule
}

type structInfo struct {
	fields      []fieldInfo
	byName      map[string]int // exact JSON name → fields index
	passthrough int            // index of the Extra []Member field, -1 if none
	scope       string         // "" for Request, "messages" for Message (Passthrough prefixes)
}

var structInfos sync.Map // reflect.Type → *structInfo

func infoOf(t reflect.Type) *structInfo {
	if si, ok := structInfos.Load(t); ok {
		return si.(*structInfo)
	}
	si := &structInfo{byName: map[string]int{}, passthrough: -1}
	if t == reflect.TypeFor[Message]() {
		si.scope = "messages"
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("egress")
		if tag == "passthrough" {
			si.passthrough = i
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		si.byName[name] = len(si.fields)
		si.fields = append(si.fields, fieldInfo{name: name, index: i, rule: parseRule(tag)})
	}
	structInfos.Store(t, si)
	return si
}

// rule is a parsed egress tag.
type rule struct {
	kind   string // text, jsontext, json, id, opaque, enum, num, int, bool, struct
	enum   []string
	code   string // the error code of a value outside enum (default CodeInvalidValue)
	lo, hi float64
	ilo    int64
	ihi    int64
}

func parseRule(tag string) rule {
	tag, code, _ := strings.Cut(tag, ";code=")
	kind, arg, _ := strings.Cut(tag, ":")
	r := rule{kind: kind, code: CodeInvalidValue}
	if code != "" {
		r.code = code
	}
	switch kind {
	case "enum":
		r.enum = strings.Split(arg, "|")
	case "num":
		lo, hi, _ := strings.Cut(arg, ",")
		r.lo, _ = strconv.ParseFloat(lo, 64)
		r.hi, _ = strconv.ParseFloat(hi, 64)
	case "int":
		lo, hi, _ := strings.Cut(arg, ",")
		r.ilo, _ = strconv.ParseInt(lo, 10, 64)
		r.ihi, _ = strconv.ParseInt(hi, 10, 64)
	}
	return r
}

// object decodes an object into the struct rv.
func (d *decoder) object(v *JSON, rv reflect.Value, path string) *Error {
	if v.Kind != KindObject {
		return typeError(path, "an object", v.Kind)
	}
	si := infoOf(rv.Type())
	for i := range v.Obj {
		m := &v.Obj[i]
		fi, ok := si.byName[m.Key]
		if !ok {
			if e := d.unknown(si, m, rv, path); e != nil {
				return e
			}
			continue
		}
		f := si.fields[fi]
		if e := d.field(&m.Value, rv.Field(f.index), f.rule, joinPath(path, f.name)); e != nil {
			return e
		}
	}
	if p, ok := rv.Addr().Interface().(interface {
		check(d *decoder, path string) *Error
	}); ok {
		return p.check(d, path)
	}
	return nil
}

// unknown handles a key that names no allow-listed field.
func (d *decoder) unknown(si *structInfo, m *Member, rv reflect.Value, path string) *Error {
	allowed := ""
	if ablateAllowList && si.passthrough >= 0 {
		// The boundary as it was before issue #11: a key in another casing is read into its
		// field, and every key the agent does not know is kept and forwarded as sent.
		for _, f := range si.fields {
			if strings.EqualFold(f.name, m.Key) {
				_ = d.field(&m.Value, rv.Field(f.index), f.rule, joinPath(path, f.name))
			}
		}
		ex := rv.Field(si.passthrough)
		ex.Set(reflect.Append(ex, reflect.ValueOf(Member{Key: m.Key, Value: m.Value, raw: true})))
		return nil
	}
	if si.passthrough >= 0 && d.o.KeepUnknown {
		ex := rv.Field(si.passthrough)
		ex.Set(reflect.Append(ex, reflect.ValueOf(*m)))
		return nil
	}
	if si.passthrough >= 0 {
		for _, p := range d.o.Passthrough {
			scope, name, nested := strings.Cut(p, ".")
			if !nested {
				scope, name = "", p
			}
			if scope != si.scope {
				continue
			}
			if name == m.Key {
				ex := rv.Field(si.passthrough)
				ex.Set(reflect.Append(ex, reflect.ValueOf(*m)))
				return nil
			}
			if strings.EqualFold(name, m.Key) {
				allowed = name
			}
		}
	}
	for _, f := range si.fields {
		if strings.EqualFold(f.name, m.Key) {
			allowed = f.name
		}
	}
	p := joinPath(path, safeName(m.Key))
	if allowed != "" {
		return InvalidRequest(CodeInvalidFieldCasing, p, fmt.Sprintf(
			"field %s in %s is not recognised: field names are case-sensitive, did you mean %q? "+
				"(a field the agent does not read exactly is never forwarded)", quoteName(m.Key), where(path), allowed))
	}
	return InvalidRequest(CodeUnknownField, p, fmt.Sprintf(
		"field %s in %s is not supported: this branch endpoint forwards only fields it checks for personal data; "+
			"ask the branch operator to allow it (egress.passthrough_fields) if the model server needs it", quoteName(m.Key), where(path)))
}

func (d *decoder) field(v *JSON, fv reflect.Value, r rule, path string) *Error {
	if v.Kind == KindNull {
		switch fv.Kind() {
		case reflect.Pointer, reflect.Slice:
			return nil // an optional field sent as null is an absent one
		}
		if fv.Type() == reflect.TypeFor[Content]() {
			return nil
		}
		return typeError(path, "a value", v.Kind)
	}
	if p, ok := fv.Addr().Interface().(interface {
		decode(d *decoder, v *JSON, path string) *Error
	}); ok {
		return p.decode(d, v, path)
	}
	switch fv.Kind() {
	case reflect.Pointer:
		nv := reflect.New(fv.Type().Elem())
		if e := d.field(v, nv.Elem(), r, path); e != nil {
			return e
		}
		fv.Set(nv)
		return nil
	case reflect.Slice:
		if v.Kind != KindArray {
			return typeError(path, "an array", v.Kind)
		}
		s := reflect.MakeSlice(fv.Type(), len(v.Arr), len(v.Arr))
		for i := range v.Arr {
			if e := d.field(&v.Arr[i], s.Index(i), r, path+"["+strconv.Itoa(i)+"]"); e != nil {
				return e
			}
		}
		fv.Set(s)
		return nil
	case reflect.Struct:
		if fv.Type() == reflect.TypeFor[JSON]() {
			fv.Set(reflect.ValueOf(*v))
			return nil
		}
		return d.object(v, fv, path)
	}
	return d.scalar(v, fv, r, path)
}

func (d *decoder) scalar(v *JSON, fv reflect.Value, r rule, path string) *Error {
	switch fv.Kind() {
	case reflect.String:
		if v.Kind != KindString {
			return typeError(path, "a string", v.Kind)
		}
		switch r.kind {
		case "enum":
			if !slices.Contains(r.enum, v.Str) {
				return InvalidRequest(r.code, path, fmt.Sprintf("%s must be one of %s", path, strings.Join(r.enum, ", ")))
			}
		case "id":
			if e := checkIdentifier(v.Str, path); e != nil {
				return e
			}
		}
		fv.SetString(v.Str)
	case reflect.Bool:
		if v.Kind != KindBool {
			return typeError(path, "true or false", v.Kind)
		}
		fv.SetBool(v.Bool)
	case reflect.Float64:
		if v.Kind != KindNumber {
			return typeError(path, "a number", v.Kind)
		}
		f, err := strconv.ParseFloat(v.Str, 64)
		if err != nil || math.IsInf(f, 0) || f < r.lo || f > r.hi {
			return InvalidRequest(CodeOutOfRange, path, fmt.Sprintf("%s must be a number between %g and %g", path, r.lo, r.hi))
		}
		fv.SetFloat(f)
	case reflect.Int64:
		if v.Kind != KindNumber {
			return typeError(path, "an integer", v.Kind)
		}
		n, ok := parseInteger(v.Str)
		if !ok || n < r.ilo || n > r.ihi {
			return InvalidRequest(CodeOutOfRange, path, fmt.Sprintf("%s must be an integer between %d and %d", path, r.ilo, r.ihi))
		}
		fv.SetInt(n)
	default:
		return Internal("the request decoder met a field it cannot read")
	}
	return nil
}

// parseInteger accepts an integer literal, also written with a zero fraction or an exponent
// ("1.0", "1e3"), as JavaScript clients send them.
func parseInteger(s string) (int64, bool) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return int64(f), true
}

// MaxIdentifierLen bounds identifiers (model names, tool-call ids, function names).
const MaxIdentifierLen = 256

// checkIdentifier allows what model servers and OpenAI use in names and ids: letters, digits
// and . _ : / @ + = - (e.g. "hf.co/org/model:Q4_K_M", "call_abc123").
func checkIdentifier(s, path string) *Error {
	ok := s != "" && len(s) <= MaxIdentifierLen
	for i := 0; ok && i < len(s); i++ {
		ok = isIdentByte(s[i])
	}
	if !ok {
		return InvalidRequest(CodeInvalidIdentifier, path, fmt.Sprintf(
			"%s must be 1 to %d characters of letters, digits and . _ : / @ + = -", path, MaxIdentifierLen))
	}
	return nil
}

func isIdentByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("._:/@+=-", c) >= 0
}

func typeError(path, want string, got Kind) *Error {
	p := path
	if p == "" {
		p = "the request"
	}
	return InvalidRequest(CodeInvalidType, path, fmt.Sprintf("%s must be %s, not %s", p, want, articled(got)))
}

func articled(k Kind) string {
	switch k {
	case KindArray, KindObject:
		return "an " + k.String()
	case KindNull:
		return "null"
	}
	return "a " + k.String()
}

// safeName bounds a client-chosen key before it goes into an error's param.
func safeName(k string) string {
	if len(k) > 64 {
		k = k[:64]
		for len(k) > 0 && k[len(k)-1] >= 0x80 {
			k = k[:len(k)-1]
		}
		k += "…"
	}
	return k
}

// quoteName quotes a client-chosen key for a message: bounded, ASCII only.
func quoteName(k string) string { return strconv.QuoteToASCII(safeName(k)) }

func where(path string) string {
	if path == "" {
		return "the request"
	}
	return path
}

// decode reads content: a string, an array of parts, or null (handled by field).
func (c *Content) decode(d *decoder, v *JSON, path string) *Error {
	switch v.Kind {
	case KindString:
		s := v.Str
		c.Text = &s
		return nil
	case KindArray:
		c.Parts = make([]Part, len(v.Arr))
		for i := range v.Arr {
			p := path + "[" + strconv.Itoa(i) + "]"
			if e := d.object(&v.Arr[i], reflect.ValueOf(&c.Parts[i]).Elem(), p); e != nil {
				return e
			}
		}
		return nil
	}
	return typeError(path, "a string, an array of content parts or null", v.Kind)
}

// check makes a part's fields agree with its type, and refuses kinds the operator did not allow.
func (p *Part) check(d *decoder, path string) *Error {
	if p.Type == "" {
		return InvalidRequest(CodeInvalidValue, joinPath(path, "type"), path+" has no type")
	}
	if slices.Contains(PartTypesNeedingConsent, p.Type) && !slices.Contains(d.o.AllowParts, p.Type) {
		return InvalidRequest(CodeUnsupportedContent, joinPath(path, "type"), fmt.Sprintf(
			"%s parts cannot be checked for personal data on this branch, so they are not sent; "+
				"ask the branch operator to allow them (egress.allow_content_parts) if they may leave the branch", p.Type))
	}
	has := map[string]bool{"text": p.Text != nil, "refusal": p.Refusal != nil, "image_url": p.ImageURL != nil,
		"input_audio": p.InputAudio != nil, "file": p.File != nil}
	for k, set := range has {
		if set != (k == p.Type) {
			if set {
				return InvalidRequest(CodeInvalidValue, joinPath(path, k), fmt.Sprintf("a %s part cannot carry %s", p.Type, k))
			}
			return InvalidRequest(CodeInvalidValue, joinPath(path, k), fmt.Sprintf("a %s part needs %s", p.Type, k))
		}
	}
	return nil
}

func (t *Tool) check(_ *decoder, path string) *Error {
	if (t.Type == "function") != (t.Function != nil) || (t.Type == "custom") != (t.Custom != nil) {
		return InvalidRequest(CodeInvalidValue, path, fmt.Sprintf("a %q tool needs exactly its own definition object", t.Type))
	}
	return nil
}

func (c *ToolCall) check(_ *decoder, path string) *Error {
	if c.Type == "" {
		c.Type = "function" // older clients leave it out
	}
	if (c.Type == "function") != (c.Function != nil) || (c.Type == "custom") != (c.Custom != nil) {
		return InvalidRequest(CodeInvalidValue, path, fmt.Sprintf("a %q tool call needs exactly its own call object", c.Type))
	}
	return nil
}

func (f *ResponseFormat) check(_ *decoder, path string) *Error {
	if (f.Type == "json_schema") != (f.JSONSchema != nil) {
		return InvalidRequest(CodeInvalidValue, joinPath(path, "json_schema"), "json_schema is required with type json_schema, and only then")
	}
	return nil
}

func (p *Prediction) check(_ *decoder, path string) *Error {
	if !p.Content.TextOnly() {
		return InvalidRequest(CodeInvalidValue, joinPath(path, "content"), "predicted content may hold text parts only")
	}
	return nil
}

// check gives the free-form fields of the top level the shape OpenAI defines for them.
func (r *Request) check(_ *decoder, _ string) *Error {
	if m := r.Metadata; m != nil {
		if m.Kind != KindObject {
			return typeError("metadata", "an object of strings", m.Kind)
		}
		for i := range m.Obj {
			if m.Obj[i].Value.Kind != KindString {
				return typeError("metadata."+safeName(m.Obj[i].Key), "a string", m.Obj[i].Value.Kind)
			}
		}
	}
	for _, f := range []struct {
		name string
		v    *JSON
		mode []string
	}{{"tool_choice", r.ToolChoice, []string{"none", "auto", "required"}}, {"function_call", r.FunctionCall, []string{"none", "auto"}}} {
		switch {
		case f.v == nil, f.v.Kind == KindObject:
		case f.v.Kind == KindString:
			if !slices.Contains(f.mode, f.v.Str) {
				return InvalidRequest(CodeInvalidValue, f.name, fmt.Sprintf("%s must be one of %s, or an object naming a tool", f.name, strings.Join(f.mode, ", ")))
			}
		default:
			return typeError(f.name, "a string or an object", f.v.Kind)
		}
	}
	for _, f := range []struct {
		name string
		v    *JSON
	}{{"web_search_options", r.WebSearchOptions}, {"moderation", r.Moderation}, {"prompt_cache_options", r.PromptCacheOpts}} {
		if f.v != nil && f.v.Kind != KindObject {
			return typeError(f.name, "an object", f.v.Kind)
		}
	}
	return nil
}

// decode reads stop: a string or an array of up to four strings.
func (s *Stop) decode(_ *decoder, v *JSON, path string) *Error {
	switch v.Kind {
	case KindString:
		s.Values, s.List = []string{v.Str}, false
		return nil
	case KindArray:
		if len(v.Arr) > MaxStopSequences {
			return InvalidRequest(CodeOutOfRange, path, fmt.Sprintf("stop takes at most %d sequences", MaxStopSequences))
		}
		s.Values, s.List = make([]string, len(v.Arr)), true
		for i := range v.Arr {
			if v.Arr[i].Kind != KindString {
				return typeError(path+"["+strconv.Itoa(i)+"]", "a string", v.Arr[i].Kind)
			}
			s.Values[i] = v.Arr[i].Str
		}
		return nil
	}
	return typeError(path, "a string or an array of strings", v.Kind)
}

// decode reads logit_bias: token ids (decimal) to a bias in [-100, 100].
func (b *LogitBias) decode(_ *decoder, v *JSON, path string) *Error {
	if v.Kind != KindObject {
		return typeError(path, "an object", v.Kind)
	}
	out := make(LogitBias, 0, len(v.Obj))
	for _, m := range v.Obj {
		if _, err := strconv.ParseUint(m.Key, 10, 32); err != nil {
			return InvalidRequest(CodeInvalidValue, path, "logit_bias keys must be token ids (decimal integers)")
		}
		f, err := strconv.ParseFloat(m.Value.Str, 64)
		if m.Value.Kind != KindNumber || err != nil || f < -100 || f > 100 {
			return InvalidRequest(CodeOutOfRange, path+"."+m.Key, "logit_bias values must be numbers between -100 and 100")
		}
		out = append(out, TokenBias{Token: m.Key, Bias: f})
	}
	*b = out
	return nil
}

// UnmarshalJSON decodes strictly with no operator allowances (DecodeRequest with zero
// DecodeOptions), so no path can read a request leniently by accident.
func (r *Request) UnmarshalJSON(b []byte) error {
	req, e := DecodeRequest(b, DecodeOptions{})
	if e != nil {
		return e
	}
	*r = *req
	return nil
}

// Validate reports what makes a decoded request unservable.
func (r *Request) Validate() *Error {
	if r.Model == "" {
		return InvalidRequest(CodeMissingModel, "model", "you must provide a model parameter")
	}
	if len(r.Messages) == 0 {
		return InvalidRequest(CodeMissingMessages, "messages", "messages must be a non-empty array")
	}
	for i, m := range r.Messages {
		if m.Role == "" {
			return InvalidRequest(CodeInvalidMessage, fmt.Sprintf("messages[%d].role", i), fmt.Sprintf("messages[%d] has no role", i))
		}
	}
	return nil
}
