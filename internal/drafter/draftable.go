package drafter

import (
	"reflect"

	"github.com/sucursal/sucursal/internal/chat"
)

// draftable returns the messages to draft on, or false for requests that must go plain: not
// greedy (sampling needs the lossless acceptance rule, see docs/DRAFTING.md), or using anything
// whose effect the verifier does not reproduce (tools, stop sequences, formats, n…). Streamed and
// non-streamed requests are both drafted.
func draftable(r *chat.Request) ([]chat.Turn, bool) {
	if r == nil || r.Temperature == nil || *r.Temperature != 0 {
		return nil, false
	}
	// Whatever is set besides these fields (tools, stop, formats, n, penalties, operator-allowed
	// fields, any field added to chat.Request later) sends the request plain.
	rest := *r
	rest.Model, rest.Messages, rest.Stream, rest.StreamOptions = "", nil, false, nil
	rest.Temperature, rest.MaxTokens, rest.MaxCompletionTokens, rest.TopP, rest.Seed, rest.User = nil, nil, nil, nil, nil, nil
	if !reflect.DeepEqual(rest, chat.Request{}) {
		return nil, false
	}
	msgs := make([]chat.Turn, 0, len(r.Messages))
	for _, m := range r.Messages {
		if m.Role != "system" && m.Role != "user" && m.Role != "assistant" || !m.Content.TextOnly() ||
			len(m.ToolCalls) > 0 || m.Refusal != nil || m.FunctionCall != nil || m.Audio != nil || m.ToolCallID != nil || len(m.Extra) > 0 {
			return nil, false
		}
		msgs = append(msgs, chat.Turn{Role: m.Role, Content: m.Content.String()})
	}
	return msgs, true
}
