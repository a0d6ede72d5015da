package pipeline

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/redact"
)

// Redact replaces personal data in every text of the request with placeholders before the rest of
// the pipeline runs, and puts the values back into the answer on its way up, streamed or not.
// The vault lives in a per-request session that is wiped when the request ends (or its TTL runs
// out). Anything below this stage only ever sees redacted text.
func Redact(r *redact.Redactor, limits ...RedactLimits) Stage {
	var lim RedactLimits
	if len(limits) > 0 {
		lim = limits[0]
	}
	return func(next Handler) Handler {
		return HandlerFunc(func(ctx context.Context, req *Request, w ResponseWriter) error {
			sess := r.NewSession(0)
			defer sess.Close()
			sess.SetLimits(lim.MaxEntities, lim.MaxVaultBytes)
			if err := redactRequest(ctx, sess, req.Chat); err != nil {
				req.Redacted.fail(errRedactionFailed)
				return redactionError(err)
			}
			req.Redacted.fill(req.Chat) // the guard's DC fallback may now see the redacted text
			rw := &rehydrator{ResponseWriter: w, sess: sess}
			err := next.ServeChat(ctx, req, rw)
			if err == nil {
				err = rw.finish()
			}
			return err
		})
	}
}

// RedactLimits bound one request's vault: distinct personal values and their bytes (0: none). A
// request past them is refused with 422 too_many_entities instead of being held in memory.
type RedactLimits struct {
	MaxEntities   int
	MaxVaultBytes int
}

// redactRequest redacts every text of the request (chat.Request.Walk: message contents, names,
// tool-call arguments, tool definitions, schemas, metadata, stop, user, operator-allowed
// fields…) through one session, so a value gets the same placeholder everywhere.
func redactRequest(ctx context.Context, sess *redact.Session, req *chat.Request) error {
	var texts []redact.TextRef
	_ = req.Walk(func(t chat.Text) error {
		// JSON escapes (\u00e9) would hide a name from the text recognizers; RedactJSON looks
		// inside the strings and falls back to plain text for non-JSON.
		texts = append(texts, redact.TextRef{S: t.S, JSON: t.MaybeJSON, Content: t.Content})
		return nil
	})
	return sess.RedactTexts(ctx, texts)
}

func redactionError(err error) error {
	switch {
	case errors.Is(err, redact.ErrMatchTimeout):
		// Fail closed: text we could not finish checking is not sent anywhere.
		return &chat.Error{Status: http.StatusUnprocessableEntity, Type: "invalid_request_error", Code: chat.CodeRedactionTimeout,
			Message: "the request could not be checked for personal data in time, so it was not sent; shorten or simplify it"}
	case errors.Is(err, redact.ErrTooManyEntities):
		return &chat.Error{Status: http.StatusUnprocessableEntity, Type: "invalid_request_error", Code: chat.CodeTooManyEntities,
			Message: "the request holds more personal values than this branch redacts in one request; split it"}
	case errors.Is(err, redact.ErrNERUnavailable):
		return chat.Unavailable(chat.CodeNERUnavailable,
			"the branch's personal-data detector is unavailable and policy requires it; the request was not sent", 5*time.Second)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	}
	return chat.Internal("the request could not be checked for personal data, so it was not sent")
}

// rehydrator puts vault values back into what comes up the pipeline: one stream per choice for
// content and one per (choice, tool call) for arguments, so a placeholder split across chunks at
// any byte is restored.
type rehydrator struct {
	ResponseWriter
	sess    *redact.Session
	content map[int]*redact.Stream
	args    map[[2]int]*redact.Stream
	last    *chat.Chunk // a template for a closing chunk, if text is still held at the end
}

func (rw *rehydrator) stream(choice int) *redact.Stream {
	if rw.content == nil {
		rw.content = map[int]*redact.Stream{}
	}
	st, ok := rw.content[choice]
	if !ok {
		st = rw.sess.NewStream()
		rw.content[choice] = st
	}
	return st
}

func (rw *rehydrator) argStream(choice, tool int) *redact.Stream {
	if rw.args == nil {
		rw.args = map[[2]int]*redact.Stream{}
	}
	k := [2]int{choice, tool}
	st, ok := rw.args[k]
	if !ok {
		st = rw.sess.NewJSONStream()
		rw.args[k] = st
	}
	return st
}

func (rw *rehydrator) WriteChunk(c *chat.Chunk) error {
	for i := range c.Choices {
		ch := &c.Choices[i]
		st := rw.stream(ch.Index)
		if ch.Delta.Content != nil {
			out := st.Write(*ch.Delta.Content)
			ch.Delta.Content = &out
		}
		for j := range ch.Delta.ToolCalls {
			tc := &ch.Delta.ToolCalls[j]
			idx := j
			if tc.Index != nil {
				idx = *tc.Index
			}
			tc.Function.Arguments = rw.argStream(ch.Index, idx).Write(tc.Function.Arguments)
		}
		if ch.FinishReason != nil {
			// The choice is over: whatever is held comes out with its last chunk.
			rw.flushInto(ch)
		}
	}
	if len(c.Choices) > 0 {
		rw.last = c
	}
	return rw.ResponseWriter.WriteChunk(c)
}

// flushInto appends the held tails of a finished choice to its chunk.
func (rw *rehydrator) flushInto(ch *chat.ChunkChoice) {
	if st, ok := rw.content[ch.Index]; ok {
		if tail := st.Flush(); tail != "" {
			s := tail
			if ch.Delta.Content != nil {
				s = *ch.Delta.Content + tail
			}
			ch.Delta.Content = &s
		}
		delete(rw.content, ch.Index)
	}
	for k, st := range rw.args {
		if k[0] != ch.Index {
			continue
		}
		if tail := st.Flush(); tail != "" {
			idx := k[1]
			ch.Delta.ToolCalls = append(ch.Delta.ToolCalls, chat.AnswerToolCall{Index: &idx, Function: chat.AnswerFunction{Arguments: tail}})
		}
		delete(rw.args, k)
	}
}

// finish sends what is still held for choices that ended without a finish_reason (a target that
// does not send one) in one closing chunk.
func (rw *rehydrator) finish() error {
	if len(rw.content) == 0 && len(rw.args) == 0 || rw.last == nil {
		return nil
	}
	closing := chat.Chunk{ID: rw.last.ID, Object: rw.last.Object, Created: rw.last.Created, Model: rw.last.Model}
	for idx := range rw.content {
		ch := chat.ChunkChoice{Index: idx}
		rw.flushInto(&ch)
		if ch.Delta.Content != nil || len(ch.Delta.ToolCalls) > 0 {
			closing.Choices = append(closing.Choices, ch)
		}
	}
	for k := range rw.args {
		ch := chat.ChunkChoice{Index: k[0]}
		rw.flushInto(&ch)
		if len(ch.Delta.ToolCalls) > 0 {
			closing.Choices = append(closing.Choices, ch)
		}
	}
	if len(closing.Choices) == 0 {
		return nil
	}
	return rw.ResponseWriter.WriteChunk(&closing)
}

func (rw *rehydrator) WriteCompletion(c *chat.Completion) error {
	for i := range c.Choices {
		m := &c.Choices[i].Message
		if m.Content.Text != nil {
			s := rw.sess.Rehydrate(*m.Content.Text)
			m.Content.Text = &s
		}
		for j := range m.Content.Parts {
			if p := &m.Content.Parts[j]; p.Text != nil {
				s := rw.sess.Rehydrate(*p.Text)
				p.Text = &s
			}
		}
		for j := range m.ToolCalls {
			m.ToolCalls[j].Function.Arguments = rw.sess.RehydrateJSON(m.ToolCalls[j].Function.Arguments)
		}
	}
	return rw.ResponseWriter.WriteCompletion(c)
}
