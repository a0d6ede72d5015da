package loadbench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Client sends chat requests to one OpenAI-compatible endpoint.
type Client struct {
	// Base is the API root, e.g. http://127.0.0.1:8080/v1 (chat goes to Base+"/chat/completions").
	Base   string
	APIKey string
	HTTP   *http.Client
}

// call is one request to send.
type call struct {
	model        string
	prompt       string
	inputTokens  int // asked for (the prompt's length in words)
	maxTokens    int
	stream       bool
	temperature  float64
	seed         *int64 // sampled requests only
	timeout      time.Duration
	measuredFrom time.Time // when the request was due (open loops: its arrival), for e2e
}

// Outcome is what one request measured. Nothing of the answer is kept but its counts.
type Outcome struct {
	Status       int           // HTTP status (0: no response)
	Code         string        // the error's code, for refusals and errors
	Err          string        // a transport or protocol error, empty when answered
	Late         time.Duration // open loops: how long after its arrival time it was sent
	TTFT         time.Duration // to the first content (0: none)
	E2E          time.Duration
	Gaps         []time.Duration // between content chunks (streamed)
	OutputTokens int             // usage.completion_tokens, else the content chunks, else bytes/4
	FromUsage    bool
	PromptTokens int // usage.prompt_tokens (0: not reported)
}

// Rejected is a 429 or 503: the server refused the request (admission, a busy DC).
func (o Outcome) Rejected() bool { return o.Status == 429 || o.Status == 503 }

// Failed is any other request that did not end in an answer.
func (o Outcome) Failed() bool { return !o.Rejected() && (o.Err != "" || o.Status != http.StatusOK) }

type chatBody struct {
	Model         string         `json:"model"`
	Messages      []message      `json:"messages"`
	Stream        bool           `json:"stream,omitempty"`
	StreamOptions *streamOptions `json:"stream_options,omitempty"`
	MaxTokens     int            `json:"max_tokens"`
	Temperature   float64        `json:"temperature"`
	Seed          *int64         `json:"seed,omitempty"`
}

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

type chunk struct {
	Choices []struct {
		Delta struct {
			Content   string            `json:"content"`
			ToolCalls []json.RawMessage `json:"tool_calls"`
		} `json:"delta"`
		Message struct {
			Content string `json:"content"`
		} `json:"message"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
	Error *apiError `json:"error"`
}

type apiError struct {
	Code    any    `json:"code"`
	Type    string `json:"type"`
	Message string `json:"message"`
}

func (e *apiError) code() string {
	switch c := e.Code.(type) {
	case string:
		return c
	case float64:
		return fmt.Sprint(c)
	}
	return e.Type
}

// do sends one request and measures it.
func (c *Client) do(ctx context.Context, k call) Outcome {
	ctx, cancel := context.WithTimeout(ctx, k.timeout)
	defer cancel()
	body := chatBody{Model: k.model, Messages: []message{{Role: "user", Content: k.prompt}}, Stream: k.stream,
		MaxTokens: k.maxTokens, Temperature: k.temperature, Seed: k.seed}
	if k.stream {
		body.StreamOptions = &streamOptions{IncludeUsage: true}
	}
	data, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(c.Base, "/")+"/chat/completions", bytes.NewReader(data))
	if err != nil {
		return Outcome{Err: err.Error()}
	}
	req.Header.Set("Content-Type", "application/json")
	if c.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	start := k.measuredFrom
	if start.IsZero() {
		start = time.Now()
	}
	o := Outcome{Late: time.Since(start)}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		o.Err, o.E2E = shortErr(err), time.Since(start)
		return o
	}
	defer resp.Body.Close()
	o.Status = resp.StatusCode
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error *apiError `json:"error"`
		}
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		if json.Unmarshal(b, &e) == nil && e.Error != nil {
			o.Code = e.Error.code()
		}
		o.E2E = time.Since(start)
		return o
	}
	if k.stream {
		c.readStream(resp.Body, start, &o)
	} else {
		c.readWhole(resp.Body, start, &o)
	}
	if o.Err == "" && ctx.Err() != nil {
		o.Err = "timeout"
	}
	return o
}

const maxGaps = 1 << 16

func (c *Client) readStream(r io.Reader, start time.Time, o *Outcome) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	var last time.Time
	chunks, done := 0, false
	for sc.Scan() {
		line := sc.Bytes()
		payload, ok := bytes.CutPrefix(line, []byte("data:"))
		if !ok {
			continue
		}
		payload = bytes.TrimSpace(payload)
		if string(payload) == "[DONE]" {
			done = true
			break
		}
		var ch chunk
		if err := json.Unmarshal(payload, &ch); err != nil {
			o.Err = "a stream event is not JSON"
			break
		}
		if ch.Error != nil {
			o.Code, o.Err = ch.Error.code(), "error event in the stream"
			break
		}
		now := time.Now()
		for _, choice := range ch.Choices {
			if choice.Delta.Content != "" || len(choice.Delta.ToolCalls) > 0 {
				if o.TTFT == 0 {
					o.TTFT = now.Sub(start)
				} else if len(o.Gaps) < maxGaps {
					o.Gaps = append(o.Gaps, now.Sub(last))
				}
				last = now
				chunks++
				break
			}
		}
		if ch.Usage != nil {
			o.OutputTokens, o.PromptTokens, o.FromUsage = ch.Usage.CompletionTokens, ch.Usage.PromptTokens, true
		}
	}
	o.E2E = time.Since(start)
	if err := sc.Err(); err != nil && o.Err == "" {
		o.Err = shortErr(err)
	}
	if !done && o.Err == "" {
		o.Err = "the stream ended without [DONE]"
	}
	if !o.FromUsage {
		o.OutputTokens = chunks
	}
}

func (c *Client) readWhole(r io.Reader, start time.Time, o *Outcome) {
	var ch chunk
	err := json.NewDecoder(io.LimitReader(r, 64<<20)).Decode(&ch)
	o.E2E = time.Since(start)
	o.TTFT = o.E2E
	switch {
	case err != nil:
		o.Err = "the answer is not JSON"
	case ch.Error != nil:
		o.Code, o.Err = ch.Error.code(), "error in the answer"
	case ch.Usage != nil:
		o.OutputTokens, o.PromptTokens, o.FromUsage = ch.Usage.CompletionTokens, ch.Usage.PromptTokens, true
	default:
		n := 0
		for _, choice := range ch.Choices {
			n += len(choice.Message.Content)
		}
		o.OutputTokens = (n + 3) / 4
	}
}

// shortErr names a transport error without quoting anything the server sent.
func shortErr(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "canceled"
	}
	return err.Error()
}
