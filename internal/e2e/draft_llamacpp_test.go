package e2e

import (
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/agent"
	"github.com/sucursal/sucursal/internal/drafter"
	"github.com/sucursal/sucursal/internal/testmodel"
)

// TestDraftingOnLlamaServer: the edge drafter on a real llama-server. With the draft model's GGUF
// configured the hello picks token mode and the accepted tokens equal the protocol simulated from
// the specs; without it, or with another tokenizer, text mode. Every answer is the target's.
func TestDraftingOnLlamaServer(t *testing.T) {
	o, tgt, d := draftModels(t)
	wp, _ := testmodel.Perturbed(tgt.WithPieces("bc", "def", "xyz", "▁a"), 0.3, 5)
	dir := t.TempDir()
	dPath, wpPath := filepath.Join(dir, "draft.gguf"), filepath.Join(dir, "draft-wp.gguf")
	if err := testmodel.WriteFile(dPath, d); err != nil {
		t.Fatal(err)
	}
	if err := testmodel.WriteFile(wpPath, wp); err != nil {
		t.Fatal(err)
	}
	dURL, wpURL := llamaServer(t, dPath), llamaServer(t, wpPath)
	fleet := newPKI(t)
	gwAddr := startDraftGateway(t, fleet, o.URL+"/v1", o.URL, 0)
	wan := startWAN(t, gwAddr, 40*time.Millisecond)
	for _, gamma := range []int{2, 5} {
		for _, dc := range []struct{ name, url, gguf, mode string }{
			{"same tokenizer with GGUF", dURL, dPath, "token"},
			{"same tokenizer without GGUF", dURL, "", "text"},
			{"other tokenizer", wpURL, wpPath, "text"},
		} {
			t.Run(dc.name+"/gamma="+strconv.Itoa(gamma), func(t *testing.T) {
				url, a := startAgent(t, fleet, wan, func(c *agent.Config) {
					c.Draft = drafter.Config{Enabled: true, Backend: "llamacpp", URL: dc.url, TokenizerGGUF: dc.gguf,
						GammaMin: gamma, GammaMax: gamma}
				})
				waitLink(t, a)
				warmUp(t, url, "tiny")
				wantAccepted := 0
				for _, tc := range draftCases {
					want := tgt.Greedy(tc.prompt, limit64(tc.max))
					if got := greedyStream(t, url, tc.prompt, tc.max); got != want {
						t.Errorf("%q: got %q, want %q", tc.prompt, got, want)
					}
					wantAccepted += expectedAccepted(d, tgt, tc.prompt, int(tc.max), gamma)
				}
				if n := metricSum(t, url, `sucursal_drafter_answers_total{dc="`+wan+`",mode="`+dc.mode+`"}`); n != float64(len(draftCases)) {
					t.Errorf("%v answers drafted in %s mode, want %d (plain: %v)", n, dc.mode, len(draftCases),
						metricSum(t, url, "sucursal_drafter_plain_total"))
				}
				if dc.mode == "token" {
					if got := metricSum(t, url, "sucursal_drafter_accepted_tokens_total"); got != float64(wantAccepted) {
						t.Errorf("accepted %v draft tokens, the protocol simulated from the specs accepts %d", got, wantAccepted)
					}
				}
			})
		}
	}
}
