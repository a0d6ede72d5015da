package chat

import (
	"reflect"
)

// Text is one piece of text in a request.
type Text struct {
	// Role is the role of the message the text is in; "" outside messages (tools, stop, user,
	// metadata, response_format…).
	Role string
	// MaybeJSON: tool-call arguments and tool results, which are usually JSON documents whose
	// strings may hide escaped characters (\u00e9).
	MaybeJSON bool
	// Content: a message's content (its string or a text part). Consecutive content texts are
	// adjacent in the conversation, so a value a user split between two messages or two parts
	// is looked for across them.
	Content bool
	S       *string
}

// Texts calls fn with a pointer to every piece of text in the request. Stages that rewrite text
// (redaction) walk the request through this one function, so no field is forgotten in one stage
// and not another.
func (r *Request) Texts(fn func(role string, s *string) error) error {
	return r.Walk(func(t Text) error { return fn(t.Role, t.S) })
}

// Walk visits every text of the request — every field whose rule is text, jsontext or json, at
// any depth, operator-allowed fields included — in a fixed order: the messages first (each
// message's content, then its other texts), then the other fields in declaration order. It is
// driven by the same egress tags as the decoder, so a field cannot be decoded and forwarded
// without being visited.
func (r *Request) Walk(fn func(Text) error) error {
	return walkStruct(reflect.ValueOf(r).Elem(), "", fn)
}

func walkStruct(rv reflect.Value, role string, fn func(Text) error) error {
	si := infoOf(rv.Type())
	if rv.Type() == reflect.TypeFor[Message]() {
		role = rv.Addr().Interface().(*Message).Role
	}
	for _, f := range si.fields {
		if err := walkValue(rv.Field(f.index), f.rule.kind, role, fn); err != nil {
			return err
		}
	}
	if si.passthrough >= 0 {
		extra := rv.Field(si.passthrough).Interface().([]Member)
		for i := range extra {
			if extra[i].raw {
				continue
			}
			if err := walkMember(&extra[i], fn); err != nil {
				return err
			}
		}
	}
	return nil
}

func walkValue(fv reflect.Value, kind, role string, fn func(Text) error) error {
	switch x := fv.Addr().Interface().(type) {
	case *Content:
		return x.walk(role, fn)
	case *Stop:
		for i := range x.Values {
			if err := fn(Text{Role: role, S: &x.Values[i]}); err != nil {
				return err
			}
		}
		return nil
	case *JSON:
		return walkJSON(x, fn)
	case *LogitBias:
		return nil // token ids and numbers, validated
	}
	switch fv.Kind() {
	case reflect.Pointer:
		if fv.IsNil() {
			return nil
		}
		return walkValue(fv.Elem(), kind, role, fn)
	case reflect.Slice:
		for i := 0; i < fv.Len(); i++ {
			if err := walkValue(fv.Index(i), kind, role, fn); err != nil {
				return err
			}
		}
		return nil
	case reflect.Struct:
		return walkStruct(fv, role, fn)
	case reflect.String:
		switch kind {
		case "text":
			return fn(Text{Role: role, S: fv.Addr().Interface().(*string)})
		case "jsontext":
			return fn(Text{Role: role, MaybeJSON: true, S: fv.Addr().Interface().(*string)})
		}
	}
	return nil
}

func (c *Content) walk(role string, fn func(Text) error) error {
	// Tool results are usually JSON documents.
	isTool := role == "tool" || role == "function"
	inMessage := role != "" // predicted output is content too, but not part of the conversation
	if c.Text != nil {
		return fn(Text{Role: role, MaybeJSON: isTool, Content: inMessage, S: c.Text})
	}
	for i := range c.Parts {
		p := &c.Parts[i]
		if p.Type == "text" && p.Text != nil {
			if err := fn(Text{Role: role, MaybeJSON: isTool, Content: inMessage, S: p.Text}); err != nil {
				return err
			}
			continue
		}
		if err := walkStruct(reflect.ValueOf(p).Elem(), role, fn); err != nil {
			return err
		}
	}
	return nil
}

// walkJSON visits every key, string and number of a free-form tree as text. A number that a
// stage rewrote (a card number sent as a JSON number) becomes a string.
func walkJSON(v *JSON, fn func(Text) error) error {
	switch v.Kind {
	case KindString:
		return fn(Text{S: &v.Str})
	case KindNumber:
		s := v.Str
		if err := fn(Text{S: &s}); err != nil {
			return err
		}
		if s != v.Str {
			v.Kind, v.Str = KindString, s
		}
	case KindArray:
		for i := range v.Arr {
			if err := walkJSON(&v.Arr[i], fn); err != nil {
				return err
			}
		}
	case KindObject:
		for i := range v.Obj {
			if err := walkMember(&v.Obj[i], fn); err != nil {
				return err
			}
		}
	}
	return nil
}

func walkMember(m *Member, fn func(Text) error) error {
	if err := fn(Text{S: &m.Key}); err != nil {
		return err
	}
	return walkJSON(&m.Value, fn)
}
