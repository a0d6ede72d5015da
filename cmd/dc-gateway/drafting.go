package main

import (
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/drafting"
	"github.com/sucursal/sucursal/internal/drafting/ollamaverifier"
	"github.com/sucursal/sucursal/internal/drafting/vllmverifier"
	"github.com/sucursal/sucursal/internal/gateway"
	"github.com/sucursal/sucursal/internal/vocab"
)

var _ gateway.Drafting = (*drafting.Service)(nil)

// newDrafting builds the drafting service for --draft-verifier, or nil when it is off (an untyped
// nil, which the gateway answers with drafting_not_configured).
func newDrafting(o options, reg prometheus.Registerer, log *slog.Logger) (gateway.Drafting, error) {
	vu := o.draftVerifierURL
	if vu == "" {
		vu = o.targetURL
	}
	var backend drafting.Backend
	switch o.draftVerifier {
	case "":
		return nil, nil
	case "ollama":
		v, err := ollamaverifier.New(vu, nil)
		if err != nil {
			return nil, err
		}
		backend = v
	case "vllm":
		voc, err := vocab.FromHFTokenizerJSON(o.draftVerifierTokenizer)
		if err != nil {
			return nil, err
		}
		stops, err := vocab.HFStopIDs(o.draftVerifierTokenizer, voc)
		if err != nil {
			return nil, err
		}
		// The verifier is normally the target server itself, so it takes the target's key.
		v, err := vllmverifier.New(vllmverifier.Options{URL: vu, APIKey: o.targetAPIKey, Vocab: voc, StopIDs: stops})
		if err != nil {
			return nil, err
		}
		log.Info("drafting verifier", "backend", "vllm", "url", vu, "tokenizer_fingerprint", voc.Fingerprint().String(), "stop_ids", len(stops))
		backend = v
	}
	svc, err := drafting.NewService(drafting.Options{Backend: backend, PassCost: o.draftPassCost}, reg)
	if err != nil {
		return nil, err
	}
	return svc, nil
}
