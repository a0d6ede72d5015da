package link

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/sucursal/sucursal/internal/guard"
	"github.com/sucursal/sucursal/internal/wire"
)

// DCGuard is the guard.Classifier that asks the dc-gateway's guard model over the link. The guard
// only ever calls it with redacted text (guard.ScanText.Redacted); it sends what it is given.
// Every failure — link down, gateway without a guard, a kind it does not serve — is a classifier
// failure (guard.ErrBackend or guard.ErrMalformedOutput) that the guard's fail mode handles.
type DCGuard struct {
	c    *Client
	kind guard.Kind
}

// NewDCGuard returns the DC guard classifier of the given kind on c.
func NewDCGuard(c *Client, kind guard.Kind) *DCGuard { return &DCGuard{c: c, kind: kind} }

func (d *DCGuard) Name() string     { return "dc" }
func (d *DCGuard) Kind() guard.Kind { return d.kind }

// Classify sends text to the DC guard. Errors carry codes and counts, never the text.
func (d *DCGuard) Classify(ctx context.Context, text string) (guard.Verdict, error) {
	v := guard.Verdict{Kind: d.kind}
	body, err := json.Marshal(wire.GuardRequest{Kind: string(d.kind), Text: text})
	if err != nil {
		return v, fmt.Errorf("%w: dc guard: encode request", guard.ErrBackend)
	}
	call, err := d.c.Open(ctx, wire.Request{Op: wire.OpGuard, Body: body})
	if err != nil {
		if ctx.Err() != nil {
			return v, ctx.Err()
		}
		return v, fmt.Errorf("%w: dc guard: %w", guard.ErrBackend, err)
	}
	defer call.Close()
	f, err := call.Next()
	if err != nil {
		if ctx.Err() != nil {
			return v, ctx.Err()
		}
		return v, fmt.Errorf("%w: dc guard: %w", guard.ErrBackend, err)
	}
	switch f.Type {
	case wire.TypeResponse:
		var r wire.Response
		var gv wire.GuardVerdict
		if f.Decode(&r) != nil || json.Unmarshal(r.Body, &gv) != nil {
			return v, fmt.Errorf("%w: dc guard sent an unreadable verdict", guard.ErrMalformedOutput)
		}
		return toVerdict(d.kind, gv)
	case wire.TypeError:
		var e wire.Error
		_ = f.Decode(&e)
		return v, fmt.Errorf("%w: dc guard answered %d %s", guard.ErrBackend, e.Status, codeOnly(e.Code))
	}
	return v, fmt.Errorf("%w: dc guard answered with a %s frame", guard.ErrBackend, f.Type)
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
		c, ok := guard.LookupCategory(code)
		if !ok {
			return guard.Verdict{Kind: kind}, fmt.Errorf("%w: dc guard named an unknown category", guard.ErrMalformedOutput)
		}
		v.Categories = append(v.Categories, c)
	}
	return v, nil
}

// codeOnly keeps a gateway error code printable and short; it is the only part of the gateway's
// error the edge repeats.
func codeOnly(code string) string {
	if len(code) > 40 {
		code = code[:40]
	}
	for _, r := range code {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return "?"
		}
	}
	return code
}

var _ guard.Classifier = (*DCGuard)(nil)
