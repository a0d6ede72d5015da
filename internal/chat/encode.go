package chat

import (
	"encoding/json"
	"strconv"
)

// The request that leaves the branch is encoded from the typed fields alone (encoding/json over
// the allow-listed struct fields), plus the operator-allowed members, re-encoded from their
// (redacted) trees.

type (
	requestAlias Request
	messageAlias Message
)

func (r Request) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(requestAlias(r))
	if err != nil {
		return nil, err
	}
	return appendMembers(b, r.Extra), nil
}

func (m Message) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(messageAlias(m))
	if err != nil {
		return nil, err
	}
	return appendMembers(b, m.Extra), nil
}

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
