package chat

import (
	"encoding/json"
	"errors"
)

// Chunk is one streamed chat.completion.chunk.
type Chunk struct {
	ID                string        `json:"id"`
	Object            string        `json:"object"`
	Created           int64         `json:"created"`
	Model             string        `json:"model"`
	SystemFingerprint string        `json:"system_fingerprint,omitempty"`
	Choices           []ChunkChoice `json:"choices"`
	Usage             *Usage        `json:"usage,omitempty"`
	Extra             Extra         `json:"-"`

	src *source // set by DecodeChunk: the bytes it came from (see Raw)
}

// ChunkChoice is one choice of a chunk.
type ChunkChoice struct {
	Index        int     `json:"index"`
	Delta        Delta   `json:"delta"`
	FinishReason *string `json:"finish_reason"`
	Extra        Extra   `json:"-"`
}

// Delta is what a chunk adds to a choice's message.
type Delta struct {
	Role      string           `json:"role,omitempty"`
	Content   *string          `json:"content,omitempty"`
	ToolCalls []AnswerToolCall `json:"tool_calls,omitempty"`
	Extra     Extra            `json:"-"`
}

// Completion is a non-streamed chat.completion.
type Completion struct {
	ID                string   `json:"id"`
	Object            string   `json:"object"`
	Created           int64    `json:"created"`
	Model             string   `json:"model"`
	SystemFingerprint string   `json:"system_fingerprint,omitempty"`
	Choices           []Choice `json:"choices"`
	Usage             *Usage   `json:"usage,omitempty"`
	Extra             Extra    `json:"-"`
}

// Choice is one choice of a completion.
type Choice struct {
	Index        int           `json:"index"`
	Message      AnswerMessage `json:"message"`
	FinishReason *string       `json:"finish_reason"`
	Extra        Extra         `json:"-"`
}

// Usage counts tokens.
type Usage struct {
	PromptTokens     int   `json:"prompt_tokens"`
	CompletionTokens int   `json:"completion_tokens"`
	TotalTokens      int   `json:"total_tokens"`
	Extra            Extra `json:"-"`
}

// AnswerMessage is the message of a completion's choice, as a model server answers it (fields
// the type does not name are kept).
type AnswerMessage struct {
	Role      string           `json:"role"`
	Content   Content          `json:"content"`
	ToolCalls []AnswerToolCall `json:"tool_calls,omitempty"`
	Extra     Extra            `json:"-"`
}

// AnswerToolCall is a tool call in an answer or a chunk's delta (where Index says which call a
// piece of arguments belongs to).
type AnswerToolCall struct {
	Index    *int           `json:"index,omitempty"`
	ID       string         `json:"id,omitempty"`
	Type     string         `json:"type,omitempty"`
	Function AnswerFunction `json:"function"`
	Extra    Extra          `json:"-"`
}

// AnswerFunction names the function an answer calls and carries the arguments.
type AnswerFunction struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

type (
	answerMessageAlias  AnswerMessage
	answerToolCallAlias AnswerToolCall
	chunkAlias          Chunk
	chunkChoiceAlias    ChunkChoice
	deltaAlias          Delta
	completionAlias     Completion
	choiceAlias         Choice
	usageAlias          Usage
)

func (c *Chunk) UnmarshalJSON(b []byte) (err error) {
	var a chunkAlias
	if a.Extra, err = decodeWithExtra(b, &a); err == nil {
		*c = Chunk(a)
	}
	return err
}

func (c Chunk) MarshalJSON() ([]byte, error) { return encodeWithExtra(chunkAlias(c), c.Extra) }

func (c *ChunkChoice) UnmarshalJSON(b []byte) (err error) {
	var a chunkChoiceAlias
	if a.Extra, err = decodeWithExtra(b, &a); err == nil {
		*c = ChunkChoice(a)
	}
	return err
}

func (c ChunkChoice) MarshalJSON() ([]byte, error) {
	return encodeWithExtra(chunkChoiceAlias(c), c.Extra)
}

func (d *Delta) UnmarshalJSON(b []byte) (err error) {
	var a deltaAlias
	if a.Extra, err = decodeWithExtra(b, &a); err == nil {
		*d = Delta(a)
	}
	return err
}

func (d Delta) MarshalJSON() ([]byte, error) { return encodeWithExtra(deltaAlias(d), d.Extra) }

func (c *Completion) UnmarshalJSON(b []byte) (err error) {
	var a completionAlias
	if a.Extra, err = decodeWithExtra(b, &a); err == nil {
		*c = Completion(a)
	}
	return err
}

func (c Completion) MarshalJSON() ([]byte, error) {
	return encodeWithExtra(completionAlias(c), c.Extra)
}

func (c *Choice) UnmarshalJSON(b []byte) (err error) {
	var a choiceAlias
	if a.Extra, err = decodeWithExtra(b, &a); err == nil {
		*c = Choice(a)
	}
	return err
}

func (c Choice) MarshalJSON() ([]byte, error) { return encodeWithExtra(choiceAlias(c), c.Extra) }

func (u *Usage) UnmarshalJSON(b []byte) (err error) {
	var a usageAlias
	if a.Extra, err = decodeWithExtra(b, &a); err == nil {
		*u = Usage(a)
	}
	return err
}

func (u Usage) MarshalJSON() ([]byte, error) { return encodeWithExtra(usageAlias(u), u.Extra) }

func (m *AnswerMessage) UnmarshalJSON(b []byte) (err error) {
	var a answerMessageAlias
	if a.Extra, err = decodeWithExtra(b, &a); err == nil {
		*m = AnswerMessage(a)
	}
	return err
}

func (m AnswerMessage) MarshalJSON() ([]byte, error) {
	return encodeWithExtra(answerMessageAlias(m), m.Extra)
}

func (c *AnswerToolCall) UnmarshalJSON(b []byte) (err error) {
	var a answerToolCallAlias
	if a.Extra, err = decodeWithExtra(b, &a); err == nil {
		*c = AnswerToolCall(a)
	}
	return err
}

func (c AnswerToolCall) MarshalJSON() ([]byte, error) {
	return encodeWithExtra(answerToolCallAlias(c), c.Extra)
}

// UnmarshalJSON reads an answer's content: a string, an array of parts, or null. (Requests are
// read by DecodeRequest, which never comes here.)
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
