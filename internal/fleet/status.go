package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/sucursal/sucursal/internal/fleetapi"
)

// Snapshot returns the status of every edge that reported within the status TTL, sorted by id.
func Snapshot(ctx context.Context, js jetstream.JetStream, cfg Config) ([]fleetapi.EdgeStatus, error) {
	cfg = cfg.WithDefaults()
	kv, err := js.KeyValue(ctx, cfg.Buckets.Status)
	if err != nil {
		return nil, fmt.Errorf("fleet: status bucket: %w", err)
	}
	lister, err := kv.ListKeys(ctx)
	if err != nil {
		return nil, fmt.Errorf("fleet: list status: %w", err)
	}
	var keys []string
	seen := map[string]bool{}
	for k := range lister.Keys() {
		if !seen[k] { // a key rewritten during the listing can be reported twice
			seen[k] = true
			keys = append(keys, k)
		}
	}
	out := make([]fleetapi.EdgeStatus, 0, len(keys))
	for _, k := range keys {
		e, err := kv.Get(ctx, k)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			continue // expired between list and get
		}
		if err != nil {
			return nil, fmt.Errorf("fleet: read status %s: %w", k, err)
		}
		var st fleetapi.EdgeStatus
		if err := json.Unmarshal(e.Value(), &st); err != nil {
			continue // a record we cannot read is an edge we cannot count on
		}
		out = append(out, st)
	}
	slices.SortFunc(out, func(a, b fleetapi.EdgeStatus) int { return strings.Compare(a.EdgeID, b.EdgeID) })
	return out, nil
}

// Skew counts, per role, how many edges run each version ("" = nothing installed).
func Skew(edges []fleetapi.EdgeStatus) map[string]map[string]int {
	out := map[string]map[string]int{}
	for _, e := range edges {
		for role, rs := range e.Roles {
			if out[role] == nil {
				out[role] = map[string]int{}
			}
			out[role][rs.Version]++
		}
	}
	return out
}
