package redact

import (
	"fmt"
	"testing"
)

// TestRealisticDev11AddrShape (issue #13, seventh round): the round's own dev file keeps to its id
// range (rl-<lang>-<domain>-9601…9699), ids are unique, every CCC labelled as personal data has
// valid control digits and every CHECKSUM decoy fails them (a wrong digit said not to be the
// customer's). Its figures are pinned in realisticAddrRoundsFloor.
func TestRealisticDev11AddrShape(t *testing.T) {
	items := loadItems(t, "realistic-dev11-addr.jsonl")
	if len(items) == 0 {
		t.Fatal("no items")
	}
	seen := map[string]bool{}
	for _, it := range items {
		var lang, domain string
		var n int
		if _, err := fmt.Sscanf(it.ID, "rl-%2s-", &lang); err != nil || len(it.ID) < 10 {
			t.Errorf("%s: not an rl-<lang>-<domain>-NNNN id", it.ID)
			continue
		}
		k := len(it.ID) - 4
		if _, err := fmt.Sscanf(it.ID[k:], "%d", &n); err != nil || n < 9601 || n > 9699 || it.ID[k-1] != '-' {
			t.Errorf("%s: id outside 9601–9699", it.ID)
		}
		domain = it.ID[len("rl-")+len(lang)+1 : k-1]
		if domain == "" {
			t.Errorf("%s: no domain", it.ID)
		}
		if seen[it.ID] {
			t.Errorf("%s: duplicate id", it.ID)
		}
		seen[it.ID] = true
		for _, e := range it.Entities {
			if e.Type == "CCC" && !validCCCText(e.Value) {
				t.Errorf("%s: CCC with bad control digits", it.ID)
			}
		}
		for _, d := range it.Decoys {
			if d.Type == "CHECKSUM" && validCCCText(d.Value) {
				t.Errorf("%s: CHECKSUM decoy that passes its check", it.ID)
			}
		}
	}
}
