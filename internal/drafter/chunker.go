package drafter

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/pipeline"
	"github.com/sucursal/sucursal/internal/wire"
)

// chunker writes the drafted answer as chat.completion.chunks shaped like the target's own, or,
// for a request that is not streamed (whole), as one chat.completion at the end: nothing reaches
// the user before the answer is complete, so a failure at any round can still go plain.
type chunker struct {
	w       pipeline.ResponseWriter
	id      string
	model   string
	created int64
	started bool
	whole   bool
	all     strings.Builder
}

func (c *chunker) chunk(delta chat.Delta, finish *string, usage *chat.Usage) error {
	if !c.started {
		delta.Role = "assistant"
		c.started = true
	}
	choices := []chat.ChunkChoice{{Index: 0, Delta: delta, FinishReason: finish}}
	if usage != nil {
		choices = []chat.ChunkChoice{}
	}
	return c.w.WriteChunk(&chat.Chunk{ID: c.id, Object: "chat.completion.chunk", Created: c.created, Model: c.model,
		Choices: choices, Usage: usage})
}

func (c *chunker) text(s string) error {
	if s == "" {
		return nil
	}
	if c.whole {
		c.all.WriteString(s)
		return nil
	}
	return c.chunk(chat.Delta{Content: &s}, nil, nil)
}

// usageStats is the usage extension of a drafted answer ("sucursal_drafting" in the usage
// chunk): counts and timings only.
type usageStats struct {
	Mode           string `json:"mode"`
	Rounds         int    `json:"rounds"`
	DraftTokens    int    `json:"draft_tokens"`
	AcceptedTokens int    `json:"accepted_tokens"`
	// DraftedByPosition[i] and AcceptedByPosition[i] count the rounds whose draft had a token at
	// position i+1 and had it accepted: their ratio is the acceptance by position.
	DraftedByPosition  []int   `json:"drafted_by_position"`
	AcceptedByPosition []int   `json:"accepted_by_position"`
	Gamma              int     `json:"last_gamma"`
	VerifyMillis       float64 `json:"verify_ms_mean"`
	// SwitchedToPlain is why the answer was finished by plain streaming, if it was.
	SwitchedToPlain string `json:"switched_to_plain,omitempty"`
	verifyTotal     time.Duration
}

func (s *usageStats) observe(gamma, drafted, accepted int, rtt time.Duration) {
	s.Rounds++
	s.DraftTokens += drafted
	s.AcceptedTokens += accepted
	s.Gamma = gamma
	for i := 0; i < drafted && i < len(s.DraftedByPosition); i++ {
		s.DraftedByPosition[i]++
		if i < accepted {
			s.AcceptedByPosition[i]++
		}
	}
	s.verifyTotal += rtt
	s.VerifyMillis = float64((s.verifyTotal / time.Duration(s.Rounds)).Microseconds()) / 1000
}

func (c *chunker) finish(res wire.VerifyResult, usage bool, stats usageStats) error {
	reason := res.FinishReason
	ext, _ := json.Marshal(stats)
	if c.whole {
		return c.w.WriteCompletion(&chat.Completion{ID: c.id, Object: "chat.completion", Created: c.created, Model: c.model,
			Choices: []chat.Choice{{Index: 0, Message: chat.AnswerMessage{Role: "assistant", Content: chat.TextContent(c.all.String())}, FinishReason: &reason}},
			Usage: &chat.Usage{PromptTokens: res.PromptTokens, CompletionTokens: res.CompletionTokens,
				TotalTokens: res.PromptTokens + res.CompletionTokens, Extra: chat.Extra{"sucursal_drafting": ext}}})
	}
	empty := ""
	if err := c.chunk(chat.Delta{Content: &empty}, &reason, nil); err != nil {
		return err
	}
	if !usage {
		return nil
	}
	return c.chunk(chat.Delta{}, nil, &chat.Usage{PromptTokens: res.PromptTokens, CompletionTokens: res.CompletionTokens,
		TotalTokens: res.PromptTokens + res.CompletionTokens, Extra: chat.Extra{"sucursal_drafting": ext}})
}
