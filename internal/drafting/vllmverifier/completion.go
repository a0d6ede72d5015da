package vllmverifier

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// completionAnswer is what one /v1/completions answer says about a draft.
type completionAnswer struct {
	top     []int32 // the target's top-1 at each draft position
	gen     int32   // the generated token (after the whole prompt); -1 when none
	stopped bool    // finish_reason "stop": the generated token ended the answer
}

type logprob struct {
	Logprob      *float64 `json:"logprob"`
	Rank         *int     `json:"rank"`
	DecodedToken *string  `json:"decoded_token"`
}

// completion is the part of the answer decoded with encoding/json; prompt_logprobs is taken
// out first by splitPromptLogprobs.
type completion struct {
	Choices []struct {
		Text         *string `json:"text"`
		FinishReason *string `json:"finish_reason"`
		TokenIDs     []int64 `json:"token_ids"`
		Logprobs     *struct {
			Tokens []string `json:"tokens"`
		} `json:"logprobs"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens int `json:"prompt_tokens"`
	} `json:"usage"`
}

// parseCompletion reads a /v1/completions answer for prompt whose draft starts at index start.
// prompt_logprobs is vLLM's list: null for the first token, then per position a map from token id
// to {logprob, rank, decoded_token} holding the prompt's own token (its rank) and the top-1 (rank
// 1; the same entry when the prompt token is the top-1). Each draft position must hold the draft's
// token, which proves the list is aligned with what was sent.
func parseCompletion(body []byte, prompt []int32, start, vocabSize int) (completionAnswer, error) {
	bad := func(format string, a ...any) (completionAnswer, error) {
		return completionAnswer{}, fmt.Errorf("%w: "+format, append([]any{ErrAnswer}, a...)...)
	}
	rest, positions, err := splitPromptLogprobs(body)
	var c completion
	if err != nil || json.Unmarshal(rest, &c) != nil {
		return bad("%d bytes of /v1/completions are not JSON", len(body))
	}
	if len(c.Choices) != 1 {
		return bad("%d choices", len(c.Choices))
	}
	ch := c.Choices[0]
	if c.Usage != nil && c.Usage.PromptTokens != len(prompt) {
		return bad("usage counts %d prompt tokens for %d sent", c.Usage.PromptTokens, len(prompt))
	}
	ans := completionAnswer{gen: -1}
	if start < len(prompt) {
		if start < 1 || len(positions) != len(prompt) {
			return bad("prompt_logprobs has %d positions for %d prompt tokens", len(positions), len(prompt))
		}
		// Only the draft positions are decoded (the list is ~100 bytes per context token);
		// earlier ones must be present, and the draft positions must hold the draft tokens,
		// which is what proves the list aligned with the prompt.
		for i := 1; i < start; i++ {
			if string(positions[i]) == "null" {
				return bad("position %d: no logprobs", i)
			}
		}
		for i := start; i < len(prompt); i++ {
			var pos map[string]logprob
			if err := json.Unmarshal(positions[i], &pos); err != nil {
				return bad("position %d: not a token→logprob map", i)
			}
			top, err := positionTop(pos, prompt[i], vocabSize)
			if err != nil {
				return bad("position %d: %v", i, err)
			}
			ans.top = append(ans.top, top)
		}
	}
	var gen []int64
	switch {
	case ch.TokenIDs != nil:
		gen = ch.TokenIDs
	case ch.Logprobs != nil:
		for _, s := range ch.Logprobs.Tokens {
			id, err := strconv.ParseInt(strings.TrimPrefix(s, "token_id:"), 10, 64)
			if err != nil || !strings.HasPrefix(s, "token_id:") {
				return bad("a generated token is not named token_id:N")
			}
			gen = append(gen, id)
		}
	}
	if len(gen) > 1 {
		return bad("%d tokens generated for max_tokens 1", len(gen))
	}
	for _, id := range gen {
		if id < 0 || id >= int64(vocabSize) {
			return bad("generated token id %d outside the %d-token vocabulary", id, vocabSize)
		}
		ans.gen = int32(id)
	}
	switch {
	case ch.FinishReason == nil:
		return bad("no finish_reason")
	case *ch.FinishReason == "stop":
		// With no stop strings asked, "stop" means an end-of-sequence or stop token, whose text
		// vLLM leaves out.
		if ch.Text != nil && *ch.Text != "" {
			return bad("finish_reason stop with generated text")
		}
		ans.stopped = true
	case *ch.FinishReason == "length":
		if ans.gen < 0 {
			return bad("no generated token id (return_token_ids / return_tokens_as_token_ids ignored?)")
		}
	default:
		return bad("unexpected finish_reason")
	}
	return ans, nil
}

// positionTop returns the rank-1 token of one prompt_logprobs position, after checking that the
// position holds want (the prompt token sent there) and that its ids are in the vocabulary.
func positionTop(pos map[string]logprob, want int32, vocabSize int) (int32, error) {
	if len(pos) == 0 {
		return 0, errors.New("no logprobs")
	}
	top, tops, seen := int32(-1), 0, false
	for k, lp := range pos {
		id, err := strconv.ParseInt(k, 10, 32)
		if err != nil || id < 0 || id >= int64(vocabSize) {
			return 0, fmt.Errorf("token id key outside the %d-token vocabulary", vocabSize)
		}
		if lp.Rank == nil || *lp.Rank < 1 || lp.Logprob == nil {
			return 0, errors.New("an entry without rank or logprob")
		}
		if int32(id) == want {
			seen = true
		}
		if *lp.Rank == 1 {
			top, tops = int32(id), tops+1
		}
	}
	switch {
	case !seen:
		return 0, errors.New("the prompt's token is missing (misaligned)")
	case tops != 1:
		return 0, fmt.Errorf("%d rank-1 entries", tops)
	}
	return top, nil
}
