package sync_test

import (
	"context"
	"encoding/json"
	gosync "sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/sucursal/sucursal/internal/fleet/fleettest"
	"github.com/sucursal/sucursal/internal/fleetapi"
	"github.com/sucursal/sucursal/internal/manifest"
	"github.com/sucursal/sucursal/internal/sync"
)

// usageSource is a HealthSource that also summarises usage: each call returns the next window.
type usageSource struct {
	mu    gosync.Mutex
	calls int
}

func (u *usageSource) Health(string) fleetapi.Health { return fleetapi.Health{} }
func (u *usageSource) Usage() fleetapi.Usage {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.calls++
	return fleetapi.Usage{WindowSeconds: 300, Requests: 42, InputTokens: fleetapi.Tokens{Mean: 512, Samples: 42},
		Drafting: &fleetapi.Drafting{DraftedTokens: 100, AcceptedTokens: 65, Acceptance: 0.65}}
}

// An edge whose health source summarises usage sends the summary in every status and appends it
// to the usage stream once per window; a plain health source sends neither.
func TestUsageGoesToStatusAndHistory(t *testing.T) {
	env := fleettest.Start(t)
	ctx := context.Background()
	if _, err := env.JS.CreateOrUpdateStream(ctx, jetstream.StreamConfig{Name: fleetapi.UsageStream,
		Subjects: []string{fleetapi.UsageSubjectPrefix + ">"}, MaxAge: fleetapi.UsageMaxAge}); err != nil {
		t.Fatal(err)
	}
	nc, err := env.Hub.Connect("edge usage-1")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	a, err := sync.NewAgent(sync.AgentConfig{EdgeID: "usage-1", Labels: map[string]string{"region": "eu"}, DataDir: t.TempDir(),
		Heartbeat: 200 * time.Millisecond, Buckets: env.Cfg.Buckets},
		sync.AgentDeps{Conn: nc, Trust: env.Trust, Health: &usageSource{}, Installers: map[string]sync.Installer{manifest.RuntimeOllama: &fleettest.Recorder{}}})
	if err != nil {
		t.Fatal(err)
	}
	sync.SetUsageEvery(a, 100*time.Millisecond)
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- a.Run(runCtx) }()
	defer func() { cancel(); <-done }()

	if st := a.Status(); st.Usage == nil || st.Usage.Requests != 42 {
		t.Fatalf("status usage %+v", st.Usage)
	}
	if st := env.RunAgent(t, "plain-1", fleettest.AgentOptions{Health: plainHealth{}}).Status(); st.Usage != nil {
		t.Fatalf("a health source without usage sent %+v", st.Usage)
	}
	kv, err := env.JS.KeyValue(ctx, env.Cfg.Buckets.Status)
	if err != nil {
		t.Fatal(err)
	}
	fleettest.Eventually(t, "the status record carries the usage summary", func() bool {
		e, err := kv.Get(ctx, fleetapi.StatusKey("usage-1"))
		var st fleetapi.EdgeStatus
		return err == nil && json.Unmarshal(e.Value(), &st) == nil && st.Usage != nil && st.Usage.Drafting.AcceptedTokens == 65
	})
	s, err := env.JS.Stream(ctx, fleetapi.UsageStream)
	if err != nil {
		t.Fatal(err)
	}
	fleettest.Eventually(t, "three usage records in the history", func() bool {
		info, err := s.Info(ctx)
		return err == nil && info.State.Msgs >= 3
	})
	msg, err := s.GetMsg(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	var rec fleetapi.UsageRecord
	if err := json.Unmarshal(msg.Data, &rec); err != nil {
		t.Fatal(err)
	}
	if msg.Subject != fleetapi.UsageSubject("usage-1") || rec.EdgeID != "usage-1" || rec.Labels["region"] != "eu" || rec.Usage.Requests != 42 || rec.At.IsZero() {
		t.Fatalf("record on %s: %+v", msg.Subject, rec)
	}
}

type plainHealth struct{}

func (plainHealth) Health(string) fleetapi.Health { return fleetapi.Health{} }
