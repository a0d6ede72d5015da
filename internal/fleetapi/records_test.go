package fleetapi_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/fleetapi"
	"github.com/sucursal/sucursal/internal/manifest"
)

// The records are a wire format with edges already deployed: these strings are what the code
// wrote before the contract moved out of internal/sync. A failure here is a protocol change —
// change the golden only together with every edge that reads it.
func TestRecordsJSONGolden(t *testing.T) {
	at := time.Date(2025, 3, 1, 12, 0, 0, 123456789, time.UTC)
	env := manifest.Envelope{Kind: manifest.KindManifest, Payload: []byte(`{"role":"drafter","version":"1.4.0"}`), KeyID: "k1", Sig: []byte{1, 2, 3, 250}}
	rb := manifest.Envelope{Kind: manifest.KindRollback, Payload: []byte(`{"role":"drafter"}`), KeyID: "k1", Sig: []byte{9}}
	for _, tc := range []struct {
		name   string
		value  any // a pointer, so that decoding can fill a fresh one of the same type
		golden string
	}{
		{"desired with rollback", &fleetapi.Desired{Manifest: env, Rollback: &rb, Rollout: "drafter-1.4.0-1"},
			`{"manifest":{"kind":"manifest","payload":"eyJyb2xlIjoiZHJhZnRlciIsInZlcnNpb24iOiIxLjQuMCJ9","key_id":"k1","sig":"AQID+g=="},"rollback":{"kind":"rollback","payload":"eyJyb2xlIjoiZHJhZnRlciJ9","key_id":"k1","sig":"CQ=="},"rollout":"drafter-1.4.0-1"}`},
		{"desired, manifest only", &fleetapi.Desired{Manifest: env},
			`{"manifest":{"kind":"manifest","payload":"eyJyb2xlIjoiZHJhZnRlciIsInZlcnNpb24iOiIxLjQuMCJ9","key_id":"k1","sig":"AQID+g=="}}`},
		{"edge status, every field", &fleetapi.EdgeStatus{EdgeID: "branch-0042", Labels: map[string]string{"tier": "clinic", "region": "eu"}, Seen: at,
			Roles: map[string]fleetapi.RoleStatus{
				"drafter": {Version: "1.4.0", Digest: "sha256:ab", Previous: "1.3.0", Desired: "1.5.0", Rollout: "r1", State: fleetapi.StateDownloading,
					BytesDone: 1 << 20, BytesTotal: 4 << 20, FailedVersion: "1.4.1", Reason: "digest_mismatch", LastError: "boom", Changed: at,
					Health: fleetapi.Health{Requests: 200, Errors: 3, Failovers: 1, TTFTP95Ms: 123.5}},
				"fallback": {State: fleetapi.StateIdle},
			}},
			`{"edge_id":"branch-0042","labels":{"region":"eu","tier":"clinic"},"seen":"2025-03-01T12:00:00.123456789Z","roles":{"drafter":{"version":"1.4.0","digest":"sha256:ab","previous":"1.3.0","desired":"1.5.0","rollout":"r1","state":"downloading","bytes_done":1048576,"bytes_total":4194304,"failed_version":"1.4.1","reason":"digest_mismatch","last_error":"boom","changed":"2025-03-01T12:00:00.123456789Z","health":{"requests":200,"errors":3,"failovers":1,"ttft_p95_ms":123.5}},"fallback":{"state":"idle","changed":"0001-01-01T00:00:00Z","health":{"requests":0,"errors":0,"failovers":0,"ttft_p95_ms":0}}}}`},
		{"edge status, no roles yet", &fleetapi.EdgeStatus{EdgeID: "b", Roles: map[string]fleetapi.RoleStatus{}},
			`{"edge_id":"b","seen":"0001-01-01T00:00:00Z","roles":{}}`},
		// The usage summary (issue 18) is optional: the records above, which edges without it
		// still send, decode as before (Usage nil), and a summary round-trips field for field.
		{"edge status with a usage summary", &fleetapi.EdgeStatus{EdgeID: "b", Roles: map[string]fleetapi.RoleStatus{}, Usage: &fleetapi.Usage{
			WindowSeconds: 300, Requests: 40, Errors: 2, Failovers: 4, DegradedAnswers: 1, ErrorRate: 0.05, FailoverRate: 0.1,
			TTFT: fleetapi.Latency{P50Ms: 120.5, P95Ms: 410, Samples: 38}, InterToken: fleetapi.Latency{P50Ms: 21, P95Ms: 35.2, Samples: 900},
			Degraded: true, NERDegraded: 3, GuardFailOpen: 1, GuardTimeouts: 2, RedactionTimeouts: 1, Refused429: 5, Refused503: 6,
			InputTokens: fleetapi.Tokens{Mean: 512.25, Samples: 40}, OutputTokens: fleetapi.Tokens{Mean: 250, Samples: 38, FromUsage: 30},
			Drafting: &fleetapi.Drafting{DraftedTokens: 400, AcceptedTokens: 260, Acceptance: 0.65}, Models: []string{"llama-70b"}}},
			`{"edge_id":"b","seen":"0001-01-01T00:00:00Z","roles":{},"usage":{"window_s":300,"requests":40,"errors":2,"failovers":4,"degraded_answers":1,"error_rate":0.05,"failover_rate":0.1,"ttft":{"p50_ms":120.5,"p95_ms":410,"samples":38},"inter_token":{"p50_ms":21,"p95_ms":35.2,"samples":900},"degraded":true,"ner_degraded":3,"guard_fail_open":1,"guard_timeouts":2,"redaction_timeouts":1,"refused_429":5,"refused_503":6,"input_tokens":{"mean":512.25,"samples":40},"output_tokens":{"mean":250,"samples":38,"from_usage":30},"drafting":{"drafted_tokens":400,"accepted_tokens":260,"acceptance":0.65},"models":["llama-70b"]}}`},
		{"usage record, idle window", &fleetapi.UsageRecord{EdgeID: "b", At: at, Usage: fleetapi.Usage{WindowSeconds: 300}},
			`{"edge_id":"b","at":"2025-03-01T12:00:00.123456789Z","usage":{"window_s":300,"requests":0,"errors":0,"failovers":0,"degraded_answers":0,"error_rate":0,"failover_rate":0,"ttft":{"p50_ms":0,"p95_ms":0,"samples":0},"inter_token":{"p50_ms":0,"p95_ms":0,"samples":0},"degraded":false,"ner_degraded":0,"guard_fail_open":0,"guard_timeouts":0,"redaction_timeouts":0,"refused_429":0,"refused_503":0,"input_tokens":{"mean":0,"samples":0},"output_tokens":{"mean":0,"samples":0}}}`},
		{"health", &fleetapi.Health{Requests: 7, Errors: 1, Failovers: 2, TTFTP95Ms: 0.25},
			`{"requests":7,"errors":1,"failovers":2,"ttft_p95_ms":0.25}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := json.Marshal(tc.value)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.golden {
				t.Fatalf("encoding changed:\n got %s\nwant %s", got, tc.golden)
			}
			back := reflect.New(reflect.TypeOf(tc.value).Elem()).Interface()
			if err := json.Unmarshal([]byte(tc.golden), back); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, tc.value) {
				t.Fatalf("golden decodes to %+v, want %+v", back, tc.value)
			}
		})
	}
}

func TestParseDesired(t *testing.T) {
	d, err := fleetapi.ParseDesired([]byte(`{"manifest":{"kind":"manifest","payload":"e30=","key_id":"k","sig":"AQ=="},"rollout":"r"}`))
	if err != nil || d.Rollout != "r" || string(d.Manifest.Payload) != "{}" {
		t.Fatalf("ParseDesired = %+v, %v", d, err)
	}
	for _, bad := range []string{`{"manifest":{"sig":""}}`, `null`, `{`, `[]`} {
		if _, err := fleetapi.ParseDesired([]byte(bad)); err == nil {
			t.Errorf("ParseDesired(%s) accepted", bad)
		}
	}
}

func FuzzParseDesired(f *testing.F) {
	good, _ := json.Marshal(fleetapi.Desired{Manifest: manifest.Envelope{Kind: "manifest", Payload: []byte("{}"), KeyID: "k", Sig: make([]byte, 64)}})
	f.Add(good)
	f.Add([]byte(`{"manifest":{"sig":""}}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := fleetapi.ParseDesired(data)
		if err == nil && len(d.Manifest.Sig) == 0 {
			t.Fatal("accepted a desired entry without a signature")
		}
	})
}
