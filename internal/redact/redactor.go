package redact

import (
	"fmt"
	"log/slog"
	"slices"
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
	// personCtx indexes personContext and ctxWords[TypePerson] (see context.go).
	personCtx *ctxIndex
	ner       NER
	log       *slog.Logger
	m         *metrics
	// wholeText makes every recognizer scan the whole text instead of its candidate starts
	// (tests compare both ways).
	wholeText bool
	// strict is the deterministic part of this policy (see newStrict): the join pass and the
	// exit scan use it. Nil inside the strict redactor itself.
	strict *Redactor
	// rules runs the context rules (rules.go: names, addresses, dates of birth, cue-led
	// identifiers, table columns). The strict redactor has none: its hits must not depend on
	// the words around them.
	rules bool
	// skipNormalize makes the recognizers read the raw text (tests prove the view is needed).
	skipNormalize bool
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
	recs, err := compileRecognizers(cfg, false)
	if err != nil {
		return nil, err
	}
	r := &Redactor{cfg: cfg, recs: recs, ner: ner, log: log, rules: true}
	if err := r.compileLists(); err != nil {
		return nil, err
	}
	r.ctxWords = map[string][]string{}
	for typ, words := range cfg.ContextWords {
		for _, w := range words {
			r.ctxWords[typ] = append(r.ctxWords[typ], strings.ToLower(w))
		}
	}
	r.indexContext()
	if r.m, err = newMetrics(reg); err != nil {
		return nil, err
	}
	if r.strict, err = newStrict(cfg, log); err != nil {
		return nil, err
	}
	return r, nil
}

// newStrict builds the deterministic part of a policy: the recognizers that decide on their own
// (checksummed identifiers, e-mails, phones, IPs, the operator's patterns and deny list),
// without context words, names or a NER model, and with wrong check digits ignored. What it
// finds is personal data whatever surrounds it, which is what the join pass and the exit scan
// need: a hit there is never a judgement call.
func newStrict(cfg Config, log *slog.Logger) (*Redactor, error) {
	cfg.Names = false
	cfg.NER = NERConfig{Mode: NEROff}
	cfg.ChecksumFailure = ChecksumIgnore
	cfg.ContextBoost = 0
	cfg.Disable = append(slices.Clip(cfg.Disable), TypeDOB, TypeAddress, TypePassport, TypePlate, TypeMRN, TypeCardExp, TypeCVV)
	recs, err := compileRecognizers(cfg, true)
	if err != nil {
		return nil, err
	}
	r := &Redactor{cfg: cfg, recs: recs, log: log, ctxWords: map[string][]string{}}
	if err := r.compileLists(); err != nil {
		return nil, err
	}
	r.indexContext()
	r.m, _ = newMetrics(nil)
	return r, nil
}

// compileLists compiles the deny and allow lists of r.cfg.
func (r *Redactor) compileLists() error {
	for _, d := range r.cfg.Deny {
		re, err := regexp2.Compile(`(?<![\w])`+regexp2.Escape(d.Value)+`(?![\w])`, regexp2.IgnoreCase)
		if err != nil {
			return fmt.Errorf("redact: deny entry: %w", err)
		}
		re.MatchTimeout = r.cfg.MatchTimeout
		r.deny = append(r.deny, &recognizer{name: "deny", typ: d.Type, re: re, score: 1})
	}
	for _, a := range r.cfg.Allow {
		r.allow = append(r.allow, appendLowerSameLength(nil, a))
	}
	return nil
}

// Config returns the policy the Redactor was built with.
func (r *Redactor) Config() Config { return r.cfg }
