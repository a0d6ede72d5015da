package chat

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
	Role      string     `json:"role,omitempty"`
	Content   *string    `json:"content,omitempty"`
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	Extra     Extra      `json:"-"`
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
	Index        int     `json:"index"`
	Message      Message `json:"message"`
	FinishReason *string `json:"finish_reason"`
	Extra        Extra   `json:"-"`
}

// Usage counts tokens.
type Usage struct {
	PromptTokens     int   `json:"prompt_tokens"`
	CompletionTokens int   `json:"completion_tokens"`
	TotalTokens      int   `json:"total_tokens"`
	Extra            Extra `json:"-"`
}

type (
	chunkAlias       Chunk
	chunkChoiceAlias ChunkChoice
	deltaAlias       Delta
	completionAlias  Completion
	choiceAlias      Choice
	usageAlias       Usage
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
