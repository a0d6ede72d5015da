package redact

import (
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"github.com/dlclark/regexp2"
	"github.com/prometheus/client_golang/prometheus"
)

// Redactor holds the compiled policy. It is safe for concurrent use; all per-request state
// lives in a Session.
type Redactor struct {
	cfg   Config
	recs  []*recognizer
	deny  []*recognizer
	allow [][]byte // lower-cased
	// ctxWords is cfg.ContextWords lower-cased.
	ctxWords map[string][]string
	ner      NER
	log      *slog.Logger
	m        *metrics
	// wholeText makes every recognizer scan the whole text instead of its candidate starts
	// (tests compare both ways).
	wholeText bool
	// texts recycles the prepared texts of detect (*scanText): ~50 KiB of slices per 4 KiB
	// text, which would otherwise drive the GC (and the p99) on a busy NUC.
	texts sync.Pool
	// vaults recycles the storage of closed sessions' vaults (*vault), wiped.
	vaults sync.Pool
}

// New validates cfg, compiles every pattern and registers metrics on reg (nil: not
// registered). ner may be nil only when cfg.NER.Mode is "off".
func New(cfg Config, ner NER, reg prometheus.Registerer, log *slog.Logger) (*Redactor, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.NER.Mode != NEROff && ner == nil {
		return nil, fmt.Errorf("redact: ner.mode is %s but no NER backend was given", cfg.NER.Mode)
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	recs, err := compileRecognizers(cfg)
	if err != nil {
		return nil, err
	}
	r := &Redactor{cfg: cfg, recs: recs, ner: ner, log: log}
	for _, d := range cfg.Deny {
		re, err := regexp2.Compile(`(?<![\w])`+regexp2.Escape(d.Value)+`(?![\w])`, regexp2.IgnoreCase)
		if err != nil {
			return nil, fmt.Errorf("redact: deny entry: %w", err)
		}
		re.MatchTimeout = cfg.MatchTimeout
		r.deny = append(r.deny, &recognizer{name: "deny", typ: d.Type, re: re, score: 1})
	}
	for _, a := range cfg.Allow {
		r.allow = append(r.allow, appendLowerSameLength(nil, a))
	}
	r.ctxWords = map[string][]string{}
	for typ, words := range cfg.ContextWords {
		for _, w := range words {
			r.ctxWords[typ] = append(r.ctxWords[typ], strings.ToLower(w))
		}
	}
	if r.m, err = newMetrics(reg); err != nil {
		return nil, err
	}
	return r, nil
}

// Config returns the policy the Redactor was built with.
func (r *Redactor) Config() Config { return r.cfg }
