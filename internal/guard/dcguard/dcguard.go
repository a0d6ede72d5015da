// Package dcguard is the guard backend that asks the dc-gateway's guard model: the guard's
// fallback when a local classifier fails. The guard only ever hands it redacted text
// (guard.ScanText.Redacted), and the DC client's exit check reads what it sends once more.
//
// It must never log or return the text it classifies, nor the gateway's error messages (only
// their status and code).
package dcguard

import (
	"context"
	"errors"
	"fmt"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/guard"
	"github.com/sucursal/sucursal/internal/wire"
)

// Asker is the DC as this classifier needs it (*dc.Client is one).
type Asker interface {
	Guard(ctx context.Context, kind, text string) (wire.GuardVerdict, error)
}

// Classifier asks the DC guard model. Every failure — link down, gateway without a guard, a kind
// it does not serve, the exit refusing — is a classifier failure (guard.ErrBackend or
// guard.ErrMalformedOutput) that the guard's fail mode handles.
type Classifier struct {
	dc   Asker
	kind guard.Kind
}

var _ guard.Classifier = (*Classifier)(nil)

// New returns the DC guard classifier of the given kind.
func New(dc Asker, kind guard.Kind) *Classifier { return &Classifier{dc: dc, kind: kind} }

func (c *Classifier) Name() string     { return "dc" }
func (c *Classifier) Kind() guard.Kind { return c.kind }

// Classify sends text to the DC guard. Errors carry codes and counts, never the text.
func (c *Classifier) Classify(ctx context.Context, text string) (guard.Verdict, error) {
	gv, err := c.dc.Guard(ctx, string(c.kind), text)
	if err != nil {
		if ctx.Err() != nil {
			return guard.Verdict{Kind: c.kind}, ctx.Err()
		}
		var ce *chat.Error
		if errors.As(err, &ce) {
			return guard.Verdict{Kind: c.kind}, fmt.Errorf("%w: dc guard answered %d %s", guard.ErrBackend, ce.Status, wire.CodeOnly(ce.Code))
		}
		return guard.Verdict{Kind: c.kind}, fmt.Errorf("%w: dc guard: %w", guard.ErrBackend, err)
	}
	return toVerdict(c.kind, gv)
}

func toVerdict(kind guard.Kind, gv wire.GuardVerdict) (guard.Verdict, error) {
	v := guard.Verdict{Kind: guard.Kind(gv.Kind), Malicious: gv.Malicious, Score: gv.Score}
	if v.Kind != kind {
		return guard.Verdict{Kind: kind}, fmt.Errorf("%w: dc guard answered for another kind", guard.ErrMalformedOutput)
	}
	if !(gv.Score >= 0 && gv.Score <= 1) {
		return guard.Verdict{Kind: kind}, fmt.Errorf("%w: dc guard score out of [0,1]", guard.ErrMalformedOutput)
	}
	for _, code := range gv.Categories {
		cat, ok := guard.LookupCategory(code)
		if !ok {
			return guard.Verdict{Kind: kind}, fmt.Errorf("%w: dc guard named an unknown category", guard.ErrMalformedOutput)
		}
		v.Categories = append(v.Categories, cat)
	}
	return v, nil
}
