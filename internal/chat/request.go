package chat

// The request a branch client sends is read into these types and nothing else. They are the
// allow-list of the egress boundary: a field exists here with a rule, or it is refused (unless an
// operator allowed it by name, see DecodeOptions.Passthrough). The request that leaves the
// branch is encoded from these types, after the redaction stage rewrote every text in them;
// the bytes the client sent are never forwarded.
//
// Every field carries an `egress` tag naming its rule:
//
//	text          user text: redacted (Walk visits it)
//	jsontext      text that is usually a JSON document (tool-call arguments, tool results):
//	              redacted string by string inside the document
//	json          free-form JSON (schemas, metadata, formats): every key, string and number in
//	              it is redacted as text
//	id            an identifier (model, tool-call id, function name): charset and length
//	              checked, never redacted, scanned again at the exit
//	opaque        data the agent cannot read (base64 audio or files): only in content parts an
//	              operator allowed; scanned again at the exit
//	enum:a|b      one of the listed values
//	num:lo,hi     a number in [lo, hi]
//	int:lo,hi     an integer in [lo, hi]
//	bool          true or false
//	struct        an object of its own allow-listed fields (or a list of them)
//
// TestEveryFieldHasARule fails when a field is added without one, and TestAllowListDocumented
// when docs/REDACTION.md does not list it.

// Request is a POST /v1/chat/completions body.
type Request struct {
	Model    string    `json:"model" egress:"id"`
	Messages []Message `json:"messages" egress:"struct"`
	Stream   bool      `json:"stream,omitempty" egress:"bool"`

	StreamOptions       *StreamOptions `json:"stream_options,omitempty" egress:"struct"`
	Temperature         *float64       `json:"temperature,omitempty" egress:"num:0,2"`
	TopP                *float64       `json:"top_p,omitempty" egress:"num:0,1"`
	FrequencyPenalty    *float64       `json:"frequency_penalty,omitempty" egress:"num:-2,2"`
	PresencePenalty     *float64       `json:"presence_penalty,omitempty" egress:"num:-2,2"`
	N                   *int64         `json:"n,omitempty" egress:"int:1,128"`
	MaxTokens           *int64         `json:"max_tokens,omitempty" egress:"int:1,2147483647"`
	MaxCompletionTokens *int64         `json:"max_completion_tokens,omitempty" egress:"int:1,2147483647"`
	Seed                *int64         `json:"seed,omitempty" egress:"int:-9223372036854775808,9223372036854775807"`
	Logprobs            *bool          `json:"logprobs,omitempty" egress:"bool"`
	TopLogprobs         *int64         `json:"top_logprobs,omitempty" egress:"int:0,20"`
	LogitBias           LogitBias      `json:"logit_bias,omitempty" egress:"struct"`
	Stop                *Stop          `json:"stop,omitempty" egress:"text"`
	ParallelToolCalls   *bool          `json:"parallel_tool_calls,omitempty" egress:"bool"`
	Store               *bool          `json:"store,omitempty" egress:"bool"`
	ServiceTier         *string        `json:"service_tier,omitempty" egress:"enum:auto|default|flex|scale|priority"`
	ReasoningEffort     *string        `json:"reasoning_effort,omitempty" egress:"enum:none|minimal|low|medium|high|xhigh"`
	Verbosity           *string        `json:"verbosity,omitempty" egress:"enum:low|medium|high"`
	Modalities          []string       `json:"modalities,omitempty" egress:"enum:text|audio"`
	Audio               *AudioOutput   `json:"audio,omitempty" egress:"struct"`
	// PromptCacheRetention is OpenAI's cache lifetime hint.
	PromptCacheRetention *string `json:"prompt_cache_retention,omitempty" egress:"enum:in_memory|24h"`

	// OpenAI's user is meant for an end-user id; branch apps put e-mails and names there.
	User             *string `json:"user,omitempty" egress:"text"`
	SafetyIdentifier *string `json:"safety_identifier,omitempty" egress:"text"`
	PromptCacheKey   *string `json:"prompt_cache_key,omitempty" egress:"text"`

	Metadata         *JSON           `json:"metadata,omitempty" egress:"json"`
	Tools            []Tool          `json:"tools,omitempty" egress:"struct"`
	ToolChoice       *JSON           `json:"tool_choice,omitempty" egress:"json"`
	Functions        []FunctionDef   `json:"functions,omitempty" egress:"struct"`
	FunctionCall     *JSON           `json:"function_call,omitempty" egress:"json"`
	ResponseFormat   *ResponseFormat `json:"response_format,omitempty" egress:"struct"`
	Prediction       *Prediction     `json:"prediction,omitempty" egress:"struct"`
	WebSearchOptions *JSON           `json:"web_search_options,omitempty" egress:"json"`
	Moderation       *JSON           `json:"moderation,omitempty" egress:"json"`
	PromptCacheOpts  *JSON           `json:"prompt_cache_options,omitempty" egress:"json"`

	// Extra holds the top-level fields an operator allowed by name (vLLM's top_k, …): free-form
	// JSON, redacted like any other.
	Extra []Member `json:"-" egress:"passthrough"`
}

// StreamOptions is the stream_options object.
type StreamOptions struct {
	IncludeUsage       *bool `json:"include_usage,omitempty" egress:"bool"`
	IncludeObfuscation *bool `json:"include_obfuscation,omitempty" egress:"bool"`
}

// Message is one entry of messages. Content is a string, an array of parts, or null.
type Message struct {
	Role    string  `json:"role" egress:"enum:system|developer|user|assistant|tool|function;code=invalid_message"`
	Content Content `json:"content" egress:"struct"`
	// Name is a participant's name: text like any other.
	Name         *string       `json:"name,omitempty" egress:"text"`
	Refusal      *string       `json:"refusal,omitempty" egress:"text"`
	ToolCalls    []ToolCall    `json:"tool_calls,omitempty" egress:"struct"`
	ToolCallID   *string       `json:"tool_call_id,omitempty" egress:"id"`
	FunctionCall *FunctionCall `json:"function_call,omitempty" egress:"struct"`
	Audio        *AudioRef     `json:"audio,omitempty" egress:"struct"`
	// Extra holds message fields an operator allowed by name ("messages.reasoning_content").
	Extra []Member `json:"-" egress:"passthrough"`
}

// ToolCall is an assistant's call of a tool in the history.
type ToolCall struct {
	ID       string          `json:"id" egress:"id"`
	Type     string          `json:"type" egress:"enum:function|custom"`
	Function *FunctionCall   `json:"function,omitempty" egress:"struct"`
	Custom   *CustomToolCall `json:"custom,omitempty" egress:"struct"`
}

// FunctionCall names a function and carries its arguments (a JSON document in a string).
type FunctionCall struct {
	Name      string `json:"name" egress:"id"`
	Arguments string `json:"arguments" egress:"jsontext"`
}

// CustomToolCall is a call of a custom (free-text input) tool.
type CustomToolCall struct {
	Name  string `json:"name" egress:"id"`
	Input string `json:"input" egress:"text"`
}

// AudioRef points at an earlier audio answer.
type AudioRef struct {
	ID string `json:"id" egress:"id"`
}

// AudioOutput asks for an audio answer.
type AudioOutput struct {
	Voice  string `json:"voice" egress:"id"`
	Format string `json:"format" egress:"enum:wav|aac|mp3|flac|opus|pcm16"`
}

// Tool is a tool the model may call.
type Tool struct {
	Type     string       `json:"type" egress:"enum:function|custom"`
	Function *FunctionDef `json:"function,omitempty" egress:"struct"`
	Custom   *CustomTool  `json:"custom,omitempty" egress:"struct"`
}

// FunctionDef describes a function (tools[].function, and the legacy functions[]).
type FunctionDef struct {
	Name        string  `json:"name" egress:"id"`
	Description *string `json:"description,omitempty" egress:"text"`
	Parameters  *JSON   `json:"parameters,omitempty" egress:"json"`
	Strict      *bool   `json:"strict,omitempty" egress:"bool"`
}

// CustomTool describes a custom tool.
type CustomTool struct {
	Name        string  `json:"name" egress:"id"`
	Description *string `json:"description,omitempty" egress:"text"`
	Format      *JSON   `json:"format,omitempty" egress:"json"`
}

// ResponseFormat is response_format: text, json_object or json_schema.
type ResponseFormat struct {
	Type       string      `json:"type" egress:"enum:text|json_object|json_schema"`
	JSONSchema *JSONSchema `json:"json_schema,omitempty" egress:"struct"`
}

// JSONSchema is a structured-output schema.
type JSONSchema struct {
	Name        string  `json:"name" egress:"id"`
	Description *string `json:"description,omitempty" egress:"text"`
	Schema      *JSON   `json:"schema,omitempty" egress:"json"`
	Strict      *bool   `json:"strict,omitempty" egress:"bool"`
}

// Prediction is predicted output (the text the answer will mostly repeat).
type Prediction struct {
	Type    string  `json:"type" egress:"enum:content"`
	Content Content `json:"content" egress:"struct"`
}

// Part is one element of an array content. Text parts carry text; the other kinds carry data
// the agent cannot check for personal data (images, audio, files) and are refused unless the
// operator allowed their type (DecodeOptions.AllowParts).
type Part struct {
	Type       string     `json:"type" egress:"enum:text|image_url|input_audio|file|refusal"`
	Text       *string    `json:"text,omitempty" egress:"text"`
	Refusal    *string    `json:"refusal,omitempty" egress:"text"`
	ImageURL   *ImageURL  `json:"image_url,omitempty" egress:"struct"`
	InputAudio *AudioData `json:"input_audio,omitempty" egress:"struct"`
	File       *FileData  `json:"file,omitempty" egress:"struct"`
	// PromptCacheBreakpoint is OpenAI's explicit cache breakpoint marker.
	PromptCacheBreakpoint *JSON `json:"prompt_cache_breakpoint,omitempty" egress:"json"`
}

// ImageURL is an image part's image: a URL (redacted as text) or a data: URL (opaque to the
// recognizers).
type ImageURL struct {
	URL    string  `json:"url" egress:"text"`
	Detail *string `json:"detail,omitempty" egress:"enum:auto|low|high"`
}

// AudioData is an input_audio part's audio.
type AudioData struct {
	Data   string `json:"data" egress:"opaque"`
	Format string `json:"format" egress:"enum:wav|mp3"`
}

// FileData is a file part's file.
type FileData struct {
	FileData *string `json:"file_data,omitempty" egress:"opaque"`
	FileID   *string `json:"file_id,omitempty" egress:"id"`
	Filename *string `json:"filename,omitempty" egress:"text"`
}

// Stop is stop: one string or a list of up to four.
type Stop struct {
	Values []string
	// List is true when the client sent an array.
	List bool
}

// MaxStopSequences is OpenAI's bound on stop.
const MaxStopSequences = 4

// LogitBias maps token ids (decimal strings) to a bias in [-100, 100], in the order sent.
type LogitBias []TokenBias

// TokenBias is one entry of logit_bias.
type TokenBias struct {
	Token string
	Bias  float64
}

// Content is a message's content: a plain string, an array of content parts, or absent/null.
type Content struct {
	Text  *string
	Parts []Part
}

// TextContent returns a Content holding a plain string.
func TextContent(s string) Content { return Content{Text: &s} }

// String returns the text of the content: the string, or the text parts joined.
func (c Content) String() string {
	if c.Text != nil {
		return *c.Text
	}
	var s string
	for _, p := range c.Parts {
		if p.Text != nil {
			s += *p.Text
		}
	}
	return s
}

// TextOnly reports whether the content has no part other than text.
func (c Content) TextOnly() bool {
	for _, p := range c.Parts {
		if p.Type != "text" {
			return false
		}
	}
	return true
}

// Turn is one turn of a text-only conversation: what a drafter, a verifier or a guard model
// renders into a prompt. Internal interfaces take turns, not a runtime's own message type.
type Turn struct {
	Role    string
	Content string
}
