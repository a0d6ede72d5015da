package e2e

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"sort"
	"strings"
	gosync "sync"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/agent"
	"github.com/sucursal/sucursal/internal/apikey"
)

// seriesPerFamily counts the samples of a /metrics page per metric family (histogram buckets,
// sums and counts folded into their family) and returns every label value seen.
func seriesPerFamily(text string) (map[string]int, map[string]bool) {
	counts, values := map[string]int{}, map[string]bool{}
	for line := range strings.SplitSeq(text, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, labels, _ := strings.Cut(line, "{")
		name, _, _ = strings.Cut(name, " ")
		for _, suffix := range []string{"_bucket", "_sum", "_count"} {
			name = strings.TrimSuffix(name, suffix)
		}
		counts[name]++
		if labels, _, ok := strings.Cut(labels, "}"); ok {
			for pair := range strings.SplitSeq(labels, ",") {
				if _, v, ok := strings.Cut(pair, "="); ok {
					values[strings.Trim(v, `"`)] = true
				}
			}
		}
	}
	return counts, values
}

// Label cardinality stays bounded by configuration, not traffic: after 1 000 distinct users
// (the OpenAI `user` field) on six real API keys of three tenants, and 1 000 distinct unknown
// keys, every metric family of the edge-agent has exactly as many series as it had after the
// first 50 of each, and no label value is a user, a key or personal data from the prompts.
func TestMetricsCardinalityBoundedUnderManyUsersAndKeys(t *testing.T) {
	pkiDir := newPKI(t)
	gw := startGateway(t, pkiDir, pacedTarget(t, 2, time.Millisecond))
	var file apikey.File
	var tokens []string
	for i, tenant := range []string{"caja", "caja", "hipotecas", "hipotecas", "seguros", "seguros", "ops"} {
		scopes := []string{apikey.ScopeChat}
		if tenant == "ops" {
			scopes = []string{apikey.ScopeMetrics}
		}
		k, tok, err := apikey.Generate(tenant, "", scopes, fmt.Sprintf("key %d", i), time.Now())
		if err != nil {
			t.Fatal(err)
		}
		file.Keys = append(file.Keys, k)
		tokens = append(tokens, tok)
	}
	keysFile := filepath.Join(t.TempDir(), "keys.yaml")
	if err := apikey.WriteFile(keysFile, file); err != nil {
		t.Fatal(err)
	}
	base, a := startAgent(t, pkiDir, gw, func(c *agent.Config) { c.Auth.KeysFile = keysFile })
	waitLink(t, a)
	chatKeys, metricsKey := tokens[:6], tokens[6]

	send := func(token, user string) int {
		body, _ := json.Marshal(map[string]any{"model": "paced", "stream": true, "user": user,
			"messages": []map[string]string{{"role": "user", "content": opsPrompt + " " + user}}})
		req, _ := http.NewRequest("POST", base+"/v1/chat/completions", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := httpClient().Do(req)
		if err != nil {
			return -1
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
		return resp.StatusCode
	}
	unknownKey := func() string {
		var id [12]byte
		_, _ = rand.Read(id[:])
		return "sk-suc-" + hex.EncodeToString(id[:]) + "-" + strings.Repeat("A", 43)
	}
	var mu gosync.Mutex
	codes := map[int]int{}
	run := func(from, to int) {
		var wg gosync.WaitGroup
		work := make(chan int)
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range work {
					user := fmt.Sprintf("user-%04d", i)
					c1 := send(chatKeys[i%len(chatKeys)], user)
					for try := 0; c1 == http.StatusServiceUnavailable && try < 20; try++ {
						time.Sleep(50 * time.Millisecond) // a key's first use waits for an argon2id slot: retry, as clients do
						c1 = send(chatKeys[i%len(chatKeys)], user)
					}
					c2 := send(unknownKey(), user)
					mu.Lock()
					codes[c1]++
					codes[c2]++
					mu.Unlock()
				}
			}()
		}
		for i := from; i < to; i++ {
			work <- i
		}
		close(work)
		wg.Wait()
	}
	metrics := func() string {
		req, _ := http.NewRequest("GET", base+"/metrics", nil)
		req.Header.Set("Authorization", "Bearer "+metricsKey)
		resp, err := pollClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("/metrics with the metrics key: %d %s", resp.StatusCode, b)
		}
		return string(b)
	}

	run(0, 50)
	before, _ := seriesPerFamily(metrics())
	run(50, 1000)
	text := metrics()
	after, values := seriesPerFamily(text)
	if codes[200] != 1000 || codes[401] != 1000 {
		t.Fatalf("answers by status: %v (want 1000 × 200 on real keys, 1000 × 401 on unknown ones)", codes)
	}
	var grew []string
	for name, n := range after {
		if strings.HasPrefix(name, "sucursal_") && n != before[name] {
			grew = append(grew, fmt.Sprintf("%s: %d → %d series", name, before[name], n))
		}
	}
	sort.Strings(grew)
	if len(grew) > 0 {
		t.Errorf("series grew with users and keys:\n%s", strings.Join(grew, "\n"))
	}
	for v := range values {
		if strings.HasPrefix(v, "user-") || strings.Contains(v, "sk-suc-") {
			t.Errorf("label value %q is a user or a key", v)
		}
	}
	for _, v := range opsPII {
		if strings.Contains(text, v) {
			t.Errorf("/metrics contains %q", v)
		}
	}
	total := 0
	for name, n := range after {
		if strings.HasPrefix(name, "sucursal_") {
			total += n
		}
	}
	t.Logf("%d sucursal_ series in %d families after 1000 users and 1000 unknown keys", total, len(after))
}
