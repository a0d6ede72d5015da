package chat

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
)

// The request that leaves the branch is encoded from the typed fields alone (encoding/json over
// the allow-listed struct fields), plus the operator-allowed members, re-encoded from their
// (redacted) trees.

type (
	requestAlias Request
)

// Encode is the request as it leaves the branch: the allow-listed fields and the operator-allowed
// members, nothing else. The messages are written directly (encoding/json would scan every
// message's text twice more to re-validate it).
func (r *Request) Encode() ([]byte, error) {
	head := requestAlias(*r)
	head.Messages = nil
	b, err := json.Marshal(head)
	if err != nil {
		return nil, err
	}
	// The model is an identifier (no quote or backslash), so the messages key follows it as
	// written here.
	prefix := appendString([]byte(`{"model":`), r.Model)
	prefix = append(prefix, `,"messages":null`...)
	if !bytes.HasPrefix(b, prefix) {
		return nil, errors.New("chat: unexpected request encoding")
	}
	size := len(b)
	for i := range r.Messages {
		size += 64 + len(r.Messages[i].Content.String())
	}
	out := make([]byte, 0, size)
	out = append(out, prefix[:len(prefix)-len("null")]...)
	out = append(out, '[')
	for i := range r.Messages {
		if i > 0 {
			out = append(out, ',')
		}
		if out, err = r.Messages[i].appendTo(out); err != nil {
			return nil, err
		}
	}
	out = append(out, ']')
	out = append(out, b[len(prefix):]...)
	return appendMembers(out, r.Extra), nil
}

func (r Request) MarshalJSON() ([]byte, error) { return r.Encode() }

// messageRest is a message without role and content, which appendTo writes itself.
type messageRest struct {
	Name         *string       `json:"name,omitempty"`
	Refusal      *string       `json:"refusal,omitempty"`
	ToolCalls    []ToolCall    `json:"tool_calls,omitempty"`
	ToolCallID   *string       `json:"tool_call_id,omitempty"`
	FunctionCall *FunctionCall `json:"function_call,omitempty"`
	Audio        *AudioRef     `json:"audio,omitempty"`
}

func (m *Message) appendTo(b []byte) ([]byte, error) {
	b = append(b, `{"role":`...)
	b = appendString(b, m.Role)
	b = append(b, `,"content":`...)
	switch {
	case m.Content.Text != nil:
		b = appendString(b, *m.Content.Text)
	case m.Content.Parts != nil:
		parts, err := json.Marshal(m.Content.Parts)
		if err != nil {
			return nil, err
		}
		b = append(b, parts...)
	default:
		b = append(b, "null"...)
	}
	rest, err := json.Marshal(messageRest{Name: m.Name, Refusal: m.Refusal, ToolCalls: m.ToolCalls, ToolCallID: m.ToolCallID,
		FunctionCall: m.FunctionCall, Audio: m.Audio})
	if err != nil {
		return nil, err
	}
	if len(rest) > 2 {
		b = append(b, ',')
		b = append(b, rest[1:len(rest)-1]...)
	}
	b = append(b, '}')
	return appendMembers(b, m.Extra), nil
}

func (m Message) MarshalJSON() ([]byte, error) { return m.appendTo(nil) }

// appendMembers adds members to the encoded object b, in their order.
func appendMembers(b []byte, extra []Member) []byte {
	if len(extra) == 0 {
		return b
	}
	out := b[:len(b)-1]
	for i := range extra {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = appendString(out, extra[i].Key)
		out = append(out, ':')
		out = extra[i].Value.appendTo(out)
	}
	return append(out, '}')
}

func (c Content) MarshalJSON() ([]byte, error) {
	switch {
	case c.Text != nil:
		return appendString(nil, *c.Text), nil
	case c.Parts != nil:
		return json.Marshal(c.Parts)
	}
	return []byte("null"), nil
}

func (s Stop) MarshalJSON() ([]byte, error) {
	if !s.List && len(s.Values) == 1 {
		return appendString(nil, s.Values[0]), nil
	}
	b := []byte{'['}
	for i, v := range s.Values {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, v)
	}
	return append(b, ']'), nil
}

func (lb LogitBias) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, e := range lb {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, e.Token)
		b = append(b, ':')
		b = strconv.AppendFloat(b, e.Bias, 'g', -1, 64)
	}
	return append(b, '}'), nil
}
