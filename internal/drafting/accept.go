package drafting

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sucursal/sucursal/internal/wire"
)

// verify runs one target pass along the draft and accepts the target's own tokens while they
// follow it: in text mode the longest run of target tokens that spells a prefix of the draft, in
// token mode the draft tokens up to the first the target would not have chosen. What is accepted
// is always the target's own tokens, so the answer is the plain answer whatever the drafter
// proposed.
func (d *Service) verify(ctx context.Context, sess *session, draft Draft) (wire.VerifyResult, error) {
	drafted := len(draft.IDs)
	if sess.mode == wire.DraftModeText {
		drafted = utf8.RuneCountInString(draft.Text)
	}
	n := min(drafted+1, sess.maxTokens-sess.produced)
	var res wire.VerifyResult
	if n <= 0 {
		res.Done, res.FinishReason = true, "length"
		res.CompletionTokens, res.PromptTokens = sess.produced, sess.promptTokens
		return res, nil
	}
	start := time.Now()
	if d.o.PassCost > 0 {
		select {
		case <-ctx.Done():
			return res, ctx.Err()
		case <-time.After(d.o.PassCost):
		}
	}
	if sess.mode == wire.DraftModeText {
		draft.IDs = nil
	}
	pr, err := d.o.Backend.Pass(ctx, sess.st, draft, n)
	if err != nil {
		return res, err
	}
	tokens := pr.Tokens
	if len(tokens) > n {
		return res, fmt.Errorf("the backend returned %d tokens for at most %d", len(tokens), n)
	}
	took := time.Since(start)
	res.TargetMillis = float64(took.Microseconds()) / 1000
	d.mu.Lock()
	d.passCost = ewmaDuration(d.passCost, took)
	d.mu.Unlock()
	d.m.passes.Inc()
	if sess.promptTokens == 0 {
		sess.promptTokens = pr.PromptTokens
	}
	k, pos := 0, 0
	if sess.mode == wire.DraftModeToken {
		for k < len(tokens) && k < len(draft.IDs) && tokens[k].ID >= 0 && tokens[k].ID == draft.IDs[k] {
			pos += len(tokens[k].Text)
			k++
		}
	} else {
		for k < len(tokens) && tokens[k].Text != "" && strings.HasPrefix(draft.Text[pos:], tokens[k].Text) {
			pos += len(tokens[k].Text)
			k++
		}
	}
	// Never end the accepted part inside a character (byte-level or byte-fallback tokens can split
	// one): give back accepted tokens to the last character boundary. They are the target's own
	// tokens either way, so they travel in next instead, and the edge only ever shows whole
	// characters.
	full := k
	for k > 0 && !utf8.ValidString(joinTokens(tokens[:k])) {
		k--
		pos -= len(tokens[k].Text)
	}
	used := min(len(tokens), full+1) // the accepted path and the target's own next token
	res.Accepted, res.AcceptedTokens = pos, k
	res.Bonus = k == full && full < len(tokens) && k > 0 &&
		(sess.mode == wire.DraftModeToken && k == len(draft.IDs) || sess.mode == wire.DraftModeText && pos == len(draft.Text))
	sess.st.appendTokens(tokens[:used]...)
	stopped := pr.Stopped && used == len(tokens)
	res.Next = joinTokens(tokens[k:used])
	// A next token that ends inside a character is completed with more of the target's tokens
	// (a pass with an empty draft adds one), at most three: a UTF-8 character has four bytes.
	for extra := 0; !stopped && !completeUTF8(res.Next) && extra < 3 && sess.produced+used < sess.maxTokens; extra++ {
		empty := Draft{}
		if sess.mode == wire.DraftModeToken {
			empty.IDs = []int32{}
		}
		more, err := d.o.Backend.Pass(ctx, sess.st, empty, 1)
		if err != nil {
			return res, err
		}
		d.m.passes.Inc()
		if len(more.Tokens) == 0 {
			stopped = more.Stopped
			break
		}
		tok := more.Tokens[0]
		sess.st.appendTokens(tok)
		res.Next += tok.Text
		used++
		stopped = more.Stopped && len(more.Tokens) == 1
	}
	if sess.mode == wire.DraftModeToken && used == k+1 && tokens[k].ID >= 0 {
		res.NextToken = &tokens[k].ID
	}
	sess.produced += used
	switch {
	case stopped:
		res.Done, res.FinishReason = true, "stop"
	case sess.produced >= sess.maxTokens:
		res.Done, res.FinishReason = true, "length"
	case used == 0:
		// The target gave nothing and did not stop: never loop on it.
		return res, errors.New("target produced no token")
	}
	res.CompletionTokens, res.PromptTokens = sess.produced, sess.promptTokens
	d.m.draftTokens.WithLabelValues(sess.mode).Add(float64(drafted))
	d.m.acceptedTokens.WithLabelValues(sess.mode).Add(float64(k))
	return res, nil
}

func joinTokens(t []Token) string {
	var b strings.Builder
	for _, x := range t {
		b.WriteString(x.Text)
	}
	return b.String()
}

// completeUTF8 says s does not end inside a character (it may still hold invalid bytes, which
// no further token can mend).
func completeUTF8(s string) bool {
	for i := 1; i <= utf8.UTFMax && i <= len(s); i++ {
		if utf8.RuneStart(s[len(s)-i]) {
			return utf8.FullRuneInString(s[len(s)-i:])
		}
	}
	return true
}

func ewmaDuration(old, x time.Duration) time.Duration {
	if old == 0 {
		return x
	}
	return (old*7 + x*3) / 10
}
