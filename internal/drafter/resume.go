package drafter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/pipeline"
)

// errResume says the verifier failed after part of the answer reached the user.
type errResume struct {
	reason string
	sent   string // the (redacted) answer text already written
	stats  usageStats
}

func (e *errResume) Error() string { return "drafter: resuming plain after " + e.reason }

// errDiverged means the plain answer did not begin with what drafting had already shown.
var errDiverged = errors.New("drafter: the plain answer differs from the drafted part")

// resumePlain finishes an answer whose verifier failed midway by streaming the request plain and
// skipping the part the user already has. Drafting is greedy and every byte it showed was the
// target's own token, so the plain answer begins with exactly that text; the skipper checks it
// does and fails the stream (dc_protocol_error) rather than show a spliced answer if not. The
// datacenter re-does the shown part's work, so the user sees a pause, never a broken answer.
func (t *Terminal) resumePlain(ctx context.Context, req *pipeline.Request, w pipeline.ResponseWriter, r *errResume) error {
	t.m.plain.WithLabelValues(r.reason + "_mid_answer").Inc()
	t.log.Warn("drafting failed mid-answer; resuming plain", "request_id", req.ID, "reason", r.reason, "shown_bytes", len(r.sent))
	r.stats.SwitchedToPlain = r.reason
	sk := &skipper{w: w, skip: r.sent, id: "chatcmpl-" + req.ID, stats: r.stats}
	err := t.plain.ServeChat(ctx, req, sk)
	switch {
	case errors.Is(err, errDiverged) || (err == nil && sk.skip != ""):
		t.m.plain.WithLabelValues("resume_diverged").Inc()
		t.log.Error("plain resumption did not match the drafted part; answer cut", "request_id", req.ID)
		return &chat.Error{Status: http.StatusBadGateway, Type: "api_error", Code: "dc_protocol_error",
			Message: "the datacenter stopped verifying the answer midway and could not resume it"}
	}
	return err
}

// skipper passes a plain answer through, minus the first len(skip) bytes of its content, which
// must equal skip. Chunks keep the drafted answer's id, and the role (already sent) is dropped.
type skipper struct {
	w     pipeline.ResponseWriter
	skip  string
	id    string
	stats usageStats
}

func (s *skipper) Header() http.Header { return s.w.Header() }

func (s *skipper) WriteCompletion(c *chat.Completion) error {
	return fmt.Errorf("drafter: a non-streamed answer while resuming a stream")
}

func (s *skipper) WriteChunk(c *chat.Chunk) error {
	cc := *c
	cc.ID = s.id
	cc.Choices = make([]chat.ChunkChoice, 0, len(c.Choices))
	for _, ch := range c.Choices {
		ch.Delta.Role = ""
		if ch.Index == 0 && s.skip != "" && ch.Delta.Content != nil {
			content := *ch.Delta.Content
			n := min(len(content), len(s.skip))
			if content[:n] != s.skip[:n] {
				return errDiverged
			}
			s.skip = s.skip[n:]
			rest := content[n:]
			ch.Delta.Content = &rest
			if rest == "" && ch.FinishReason == nil && len(ch.Delta.ToolCalls) == 0 {
				continue
			}
		}
		cc.Choices = append(cc.Choices, ch)
	}
	if len(cc.Choices) == 0 && len(c.Choices) > 0 {
		return nil // all of it was already shown
	}
	if cc.Usage != nil {
		u := *cc.Usage
		u.Extra = chat.Extra{}
		for k, v := range cc.Usage.Extra {
			u.Extra[k] = v
		}
		ext, _ := json.Marshal(s.stats)
		u.Extra["sucursal_drafting"] = ext
		cc.Usage = &u
	}
	return s.w.WriteChunk(&cc)
}

// roundFailed turns a failed round into a plain fallback: before the first byte by streaming the
// request plain, after it by resuming plain (errResume). A link that is down goes to the failover
// router instead, which can try another datacenter while nothing has been written.
func (t *Terminal) roundFailed(err error, model string, started bool, sent string, stats usageStats) error {
	reason := failureReason(err)
	if reason == "tokenizer_mismatch" {
		t.forget(model) // the DC's model changed since the hello; ask again next time
	}
	if !started {
		if reason == reasonDCUnavailable {
			return chat.Unavailable(chat.CodeDCUnavailable, "the datacenter is unreachable from this branch; try again shortly", chat.DCRetryAfter)
		}
		return &errPlain{reason}
	}
	return &errResume{reason: reason, sent: sent, stats: stats}
}
