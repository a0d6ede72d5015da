package chat

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Request is a POST /v1/chat/completions body.
type Request struct {
	Model         string         `json:"model"`
	Messages      []Message      `json:"messages"`
	Stream        bool           `json:"stream,omitempty"`
	StreamOptions *StreamOptions `json:"stream_options,omitempty"`
	Extra         Extra          `json:"-"`
}

// StreamOptions is the stream_options object.
type StreamOptions struct {
	IncludeUsage bool  `json:"include_usage"`
	Extra        Extra `json:"-"`
}

// Message is one entry of messages. Content is a string, an array of parts, or null.
type Message struct {
	Role       string     `json:"role"`
	Content    Content    `json:"content"`
	Name       string     `json:"name,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	Extra      Extra      `json:"-"`
}

// ToolCall is an assistant's call of a tool; Arguments is a JSON document in a string.
type ToolCall struct {
	Index    *int         `json:"index,omitempty"`
	ID       string       `json:"id,omitempty"`
	Type     string       `json:"type,omitempty"`
	Function ToolFunction `json:"function"`
	Extra    Extra        `json:"-"`
}

// ToolFunction names the function and carries its arguments.
type ToolFunction struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

type (
	requestAlias       Request
	streamOptionsAlias StreamOptions
	messageAlias       Message
	toolCallAlias      ToolCall
)

func (r *Request) UnmarshalJSON(b []byte) (err error) {
	var a requestAlias
	if a.Extra, err = decodeWithExtra(b, &a); err == nil {
		*r = Request(a)
	}
	return err
}

func (r Request) MarshalJSON() ([]byte, error) { return encodeWithExtra(requestAlias(r), r.Extra) }

func (o *StreamOptions) UnmarshalJSON(b []byte) (err error) {
	var a streamOptionsAlias
	if a.Extra, err = decodeWithExtra(b, &a); err == nil {
		*o = StreamOptions(a)
	}
	return err
}

func (o StreamOptions) MarshalJSON() ([]byte, error) {
	return encodeWithExtra(streamOptionsAlias(o), o.Extra)
}

func (m *Message) UnmarshalJSON(b []byte) (err error) {
	var a messageAlias
	if a.Extra, err = decodeWithExtra(b, &a); err == nil {
		*m = Message(a)
	}
	return err
}

func (m Message) MarshalJSON() ([]byte, error) { return encodeWithExtra(messageAlias(m), m.Extra) }

func (c *ToolCall) UnmarshalJSON(b []byte) (err error) {
	var a toolCallAlias
	if a.Extra, err = decodeWithExtra(b, &a); err == nil {
		*c = ToolCall(a)
	}
	return err
}

func (c ToolCall) MarshalJSON() ([]byte, error) { return encodeWithExtra(toolCallAlias(c), c.Extra) }

// Content is a message's content: a plain string, an array of content parts, or absent/null.
type Content struct {
	Text  *string
	Parts []Part
}

// Part is one element of an array content. Only text parts carry text the agent inspects; other
// kinds (image_url, input_audio, file) are forwarded as they are.
type Part struct {
	Type  string `json:"type"`
	Text  string `json:"text,omitempty"`
	Extra Extra  `json:"-"`
}

type partAlias Part

func (p *Part) UnmarshalJSON(b []byte) (err error) {
	var a partAlias
	if a.Extra, err = decodeWithExtra(b, &a); err == nil {
		*p = Part(a)
	}
	return err
}

func (p Part) MarshalJSON() ([]byte, error) { return encodeWithExtra(partAlias(p), p.Extra) }

// TextContent returns a Content holding a plain string.
func TextContent(s string) Content { return Content{Text: &s} }

func (c *Content) UnmarshalJSON(b []byte) error {
	*c = Content{}
	switch {
	case string(b) == "null":
		return nil
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		c.Text = &s
		return nil
	case len(b) > 0 && b[0] == '[':
		return json.Unmarshal(b, &c.Parts)
	}
	return errors.New("content must be a string, an array of content parts, or null")
}

func (c Content) MarshalJSON() ([]byte, error) {
	switch {
	case c.Text != nil:
		return json.Marshal(*c.Text)
	case c.Parts != nil:
		return json.Marshal(c.Parts)
	}
	return []byte("null"), nil
}

// Texts calls fn with a pointer to every piece of user-visible text in the request: message
// contents (string or text parts) and tool-call arguments. Stages that rewrite text (redaction)
// walk the request through this one function, so no field is forgotten in one stage and not another.
func (r *Request) Texts(fn func(role string, s *string) error) error {
	return r.Walk(func(t Text) error { return fn(t.Role, t.S) })
}

// Text is one piece of text in a request.
type Text struct {
	Role string
	// MaybeJSON: tool-call arguments and tool results, which are usually JSON documents whose
	// strings may hide escaped characters (\u00e9).
	MaybeJSON bool
	S         *string
}

// Walk is Texts with the kind of each text, in the same order.
func (r *Request) Walk(fn func(Text) error) error {
	for i := range r.Messages {
		m := &r.Messages[i]
		isTool := m.Role == "tool" || m.Role == "function"
		if m.Content.Text != nil {
			if err := fn(Text{Role: m.Role, MaybeJSON: isTool, S: m.Content.Text}); err != nil {
				return err
			}
		}
		for j := range m.Content.Parts {
			if m.Content.Parts[j].Type == "text" {
				if err := fn(Text{Role: m.Role, MaybeJSON: isTool, S: &m.Content.Parts[j].Text}); err != nil {
					return err
				}
			}
		}
		for j := range m.ToolCalls {
			if err := fn(Text{Role: m.Role, MaybeJSON: true, S: &m.ToolCalls[j].Function.Arguments}); err != nil {
				return err
			}
		}
	}
	return nil
}

// Validate reports the first problem that makes the request unservable, as an OpenAI-shaped error.
func (r *Request) Validate() *Error {
	if r.Model == "" {
		return InvalidRequest("missing_model", "model", "you must provide a model parameter")
	}
	if len(r.Messages) == 0 {
		return InvalidRequest("missing_messages", "messages", "messages must be a non-empty array")
	}
	for i, m := range r.Messages {
		switch m.Role {
		case "system", "developer", "user", "assistant", "tool", "function":
		case "":
			return InvalidRequest("invalid_message", fmt.Sprintf("messages[%d].role", i), fmt.Sprintf("messages[%d] has no role", i))
		default:
			return InvalidRequest("invalid_message", fmt.Sprintf("messages[%d].role", i),
				fmt.Sprintf("messages[%d].role must be one of system, developer, user, assistant, tool", i))
		}
	}
	return nil
}
