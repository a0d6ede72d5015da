package main

import (
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/gateway"
	"github.com/sucursal/sucursal/internal/vocab"
)

// newDrafting builds the drafting service for --draft-verifier, or nil when it is off.
func newDrafting(o options, reg prometheus.Registerer, log *slog.Logger) (*gateway.Drafting, error) {
	vu := o.draftVerifierURL
	if vu == "" {
		vu = o.targetURL
	}
	var pass gateway.TargetPass
	switch o.draftVerifier {
	case "":
		return nil, nil
	case "ollama":
		p, err := gateway.NewOllamaPass(vu, nil)
		if err != nil {
			return nil, err
		}
		pass = p
	case "vllm":
		v, err := vocab.FromHFTokenizerJSON(o.draftVerifierTokenizer)
		if err != nil {
			return nil, err
		}
		stops, err := vocab.HFStopIDs(o.draftVerifierTokenizer, v)
		if err != nil {
			return nil, err
		}
		// The verifier is normally the target server itself, so it takes the target's key.
		p, err := gateway.NewVLLMPass(gateway.VLLMOptions{URL: vu, APIKey: o.targetAPIKey, Vocab: v, StopIDs: stops})
		if err != nil {
			return nil, err
		}
		log.Info("drafting verifier", "backend", "vllm", "url", vu, "tokenizer_fingerprint", v.Fingerprint().String(), "stop_ids", len(stops))
		pass = p
	}
	return gateway.NewDrafting(gateway.DraftingOptions{Backend: pass, PassCost: o.draftPassCost}, reg)
}
