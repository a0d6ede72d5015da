package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"reflect"
	"strings"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/dc"
	"github.com/sucursal/sucursal/internal/egress"
	"github.com/sucursal/sucursal/internal/guard"
	"github.com/sucursal/sucursal/internal/guard/guardsetup"
	"github.com/sucursal/sucursal/internal/pipeline"
	"github.com/sucursal/sucursal/internal/redact"
	"github.com/sucursal/sucursal/internal/redact/ner"
	"github.com/sucursal/sucursal/internal/wire"
)

// Reloadable are the configuration keys Reload applies to a running agent; a change to any other
// key needs a restart. The API keys are re-read from auth.keys_file too (a new path needs a
// restart).
var Reloadable = []string{"redaction", "guard", "log_level"}

// policy is what a reload swaps: the path above the router (guard, redaction) and the exit check
// built from the same redaction policy.
type policy struct {
	cfg      Config
	redactor *redact.Redactor
	handler  pipeline.Handler
	exit     *egress.Exit
}

// swapPath serves every request with the policy in force when it arrived; a request in flight
// keeps the one it started with.
type swapPath struct{ p atomic.Pointer[policy] }

func (s *swapPath) ServeChat(ctx context.Context, req *pipeline.Request, w pipeline.ResponseWriter) error {
	return s.p.Load().handler.ServeChat(ctx, req, w)
}

// Check is the DC clients' exit check (dc.Exit), with the policy in force.
func (s *swapPath) Check(ctx context.Context, req wire.Request, extra ...string) error {
	return s.p.Load().exit.Check(ctx, req, extra...)
}

var _ dc.Exit = (*swapPath)(nil)

// buildPolicy makes the redactor and exit check of cfg's redaction policy and its guard (asking
// the DC through asker), their metrics on reg. The caller composes the path and sets handler.
func buildPolicy(cfg Config, asker *dc.Client, reg prometheus.Registerer, log *slog.Logger) (*policy, *guard.Guard, error) {
	nerBackend, err := ner.New(cfg.Redaction.NER, &http.Client{})
	if err != nil {
		return nil, nil, fmt.Errorf("redaction: %w", err)
	}
	redactor, err := redact.New(cfg.Redaction, nerBackend, reg, log.With("component", "redact"))
	if err != nil {
		return nil, nil, fmt.Errorf("redaction: %w", err)
	}
	// Every DC client sends through the same exit check, built from the redaction policy.
	exit, err := egress.New(redactor, reg, log.With("component", "egress"))
	if err != nil {
		return nil, nil, fmt.Errorf("egress: %w", err)
	}
	g, err := guardsetup.Build(cfg.Guard, asker, reg, log.With("component", "guard"))
	if err != nil {
		return nil, nil, err
	}
	return &policy{cfg: cfg, redactor: redactor, exit: exit}, g, nil
}

// ReloadReport says what a reload did.
type ReloadReport struct {
	Reloaded []string // what is now in force from the new configuration
	Refused  []string // keys that changed but need a restart; they keep their old values
}

// Reload applies next's reloadable parts (Reloadable, and the API key file's contents) to the
// running agent and logs what it reloaded; every other changed key is named in the report (and the
// log) and keeps its value until a restart. next must be valid (Validate). Nothing changes if any part fails to build: the
// configuration in force stays, and the error says why. Requests in flight keep the policy they
// started with. The metrics of the rebuilt parts start again from zero.
func (a *Agent) Reload(next Config) (ReloadReport, error) {
	a.reloadMu.Lock()
	defer a.reloadMu.Unlock()
	cur := a.path.p.Load().cfg
	var r ReloadReport
	if err := next.Validate(); err != nil {
		return r, fmt.Errorf("invalid configuration:\n%w", err)
	}
	r.Refused = changedKeys(cur, next)
	staged := &collecting{check: prometheus.NewRegistry()}
	np, g, err := buildPolicy(next, a.dcs[0], staged, a.log)
	if err != nil {
		return ReloadReport{}, err
	}
	// What is not reloaded keeps its value in the policy's config too, so the next reload compares
	// with what is in force.
	kept := cur
	kept.Redaction, kept.Guard, kept.LogLevel = next.Redaction, next.Guard, next.LogLevel
	np.cfg = kept
	parts := a.parts
	parts.cfg, parts.redactor, parts.guard = kept, np.redactor, g
	np.handler = front(parts)(a.router)
	if a.keys != nil && next.Auth.KeysFile == cur.Auth.KeysFile {
		if err := a.keys.Reload(); err != nil {
			return ReloadReport{}, fmt.Errorf("auth.keys_file: %w", err)
		}
	}
	if err := staged.moveTo(a.reg); err != nil {
		a.log.Warn("reload: some metrics of the new policy could not be registered", "error", err.Error())
	}
	a.path.p.Store(np)
	r.Reloaded = []string{"redaction", "guard"}
	if a.level != nil {
		r.Reloaded = append(r.Reloaded, "log_level")
	}
	if a.keys != nil && next.Auth.KeysFile == cur.Auth.KeysFile {
		r.Reloaded = append(r.Reloaded, fmt.Sprintf("auth.keys_file (%d keys)", a.keys.Len()))
	}
	// Logged before the new level applies, so a reload to warn still says it happened.
	a.log.Info("configuration reloaded", "reloaded", r.Reloaded, "log_level", next.LogLevel)
	if len(r.Refused) > 0 {
		a.log.Warn("changed keys not reloaded; they keep their values until a restart", "keys", r.Refused)
	}
	if a.level != nil {
		a.level.Set(parseLevel(next.LogLevel))
	}
	return r, nil
}

// SetLevel gives Reload the level of the agent's logger to set from log_level.
func (a *Agent) SetLevel(v *slog.LevelVar) { a.level = v }

func parseLevel(s string) slog.Level {
	var l slog.Level
	_ = l.UnmarshalText([]byte(strings.ToUpper(s)))
	return l
}

// changedKeys names every YAML key (sections as one key) whose value differs between a and b,
// the reloadable ones left out.
func changedKeys(a, b Config) []string {
	skip := map[string]bool{}
	for _, k := range Reloadable {
		skip[k] = true
	}
	var out []string
	var walk func(prefix string, va, vb reflect.Value)
	walk = func(prefix string, va, vb reflect.Value) {
		t := va.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if name == "-" || !f.IsExported() {
				continue
			}
			if opts == "inline" {
				walk(prefix, va.Field(i), vb.Field(i))
				continue
			}
			key := prefix + name
			if skip[key] {
				continue
			}
			if !reflect.DeepEqual(va.Field(i).Interface(), vb.Field(i).Interface()) {
				out = append(out, key)
			}
		}
	}
	walk("", reflect.ValueOf(a), reflect.ValueOf(b))
	return out
}

// collecting is a prometheus.Registerer that keeps what is registered on it, so a reload builds
// its parts without touching the agent's registry and moves their metrics in only once every part
// is built (a failed reload leaves the metrics in force alone).
type collecting struct {
	check *prometheus.Registry // refuses what the agent's registry would: duplicates, bad names
	cs    []prometheus.Collector
}

func (c *collecting) Register(x prometheus.Collector) error {
	if err := c.check.Register(x); err != nil {
		return err
	}
	c.cs = append(c.cs, x)
	return nil
}

func (c *collecting) MustRegister(xs ...prometheus.Collector) {
	for _, x := range xs {
		if err := c.Register(x); err != nil {
			panic(err)
		}
	}
}

func (c *collecting) Unregister(x prometheus.Collector) bool { return c.check.Unregister(x) }

// moveTo replaces, in reg, each collector with the same metrics by the collected one.
func (c *collecting) moveTo(reg *prometheus.Registry) error {
	var errs []error
	for _, x := range c.cs {
		reg.Unregister(x) // the old policy's collector: same descriptors
		if err := reg.Register(x); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
