package main

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/sucursal/sucursal/internal/fleet"
	"github.com/sucursal/sucursal/internal/fleet/fleettest"
	"github.com/sucursal/sucursal/internal/fleetapi"
	"github.com/sucursal/sucursal/internal/manifest"
	"github.com/sucursal/sucursal/internal/pki"
	"github.com/sucursal/sucursal/internal/sync"
	"github.com/sucursal/sucursal/internal/trust"
)

// clusterFleet is a 3-node JetStream cluster enforcing the fleet PKI's nkey users and TLS, with
// the operator's flags for it.
type clusterFleet struct {
	c    *fleettest.Cluster
	dir  string
	auth []string // --nats URLS --nkey operator.nk --nats-ca ca.crt
}

func startClusterFleet(t *testing.T, edges []string) *clusterFleet {
	t.Helper()
	dir := t.TempDir()
	if _, err := pki.Init(pki.Options{Dir: dir, Edges: edges}); err != nil {
		t.Fatal(err)
	}
	if _, err := pki.EnsureHubCert(dir, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := fleet.EnsureCredentials(dir, edges); err != nil {
		t.Fatal(err)
	}
	a, err := fleet.LoadHubAuth(dir, fleetapi.Buckets{}.WithDefaults(), trust.DefaultBucket)
	if err != nil {
		t.Fatal(err)
	}
	c := fleettest.StartCluster(t, 3, a)
	return &clusterFleet{c: c, dir: dir, auth: []string{"--nats", c.URLs(),
		"--nkey", filepath.Join(dir, fleet.OperatorSeedFile), "--nats-ca", filepath.Join(dir, pki.CACertFile)}}
}

func (f *clusterFleet) run(t *testing.T, args ...string) string {
	t.Helper()
	out, err := run(t, append(args, f.auth...)...)
	if err != nil {
		t.Fatalf("fleetctl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// connect is a controller-credential client; only ≥ 0 pins it to one node (see Cluster.Connect).
func (f *clusterFleet) connect(t *testing.T, name string, only int) (*nats.Conn, jetstream.JetStream) {
	t.Helper()
	seed, err := nats.NkeyOptionFromSeed(filepath.Join(f.dir, fleet.ControllerSeedFile))
	if err != nil {
		t.Fatal(err)
	}
	nc := f.c.Connect(name, only, seed, nats.RootCAs(filepath.Join(f.dir, pki.CACertFile)))
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return nc, js
}

// TestInitReplicatesEveryBucketOnACluster: `fleetctl init --replicas 3` against a secured
// 3-node cluster leaves no fleet stream with fewer than three replicas, and running it again
// changes nothing.
func TestInitReplicatesEveryBucketOnACluster(t *testing.T) {
	f := startClusterFleet(t, []string{"nuc-1"})
	for range 2 {
		f.run(t, "init", "--replicas", "3")
	}
	_, js := f.connect(t, "check", -1)
	names := js.StreamNames(context.Background())
	var got []string
	for n := range names.Name() {
		got = append(got, n)
		info, err := js.Stream(context.Background(), n)
		if err != nil {
			t.Fatal(err)
		}
		cfg := info.CachedInfo()
		if cfg.Config.Replicas != 3 || cfg.Cluster == nil || len(cfg.Cluster.Replicas) != 2 {
			t.Errorf("stream %s: %d replicas configured, cluster %+v; want 3 (a leader and 2 peers)", n, cfg.Config.Replicas, cfg.Cluster)
		}
		edgeFacing := n == "KV_"+fleetapi.DefaultDesiredBucket || n == "OBJ_"+fleetapi.DefaultArtifactsBucket
		if edgeFacing && cfg.Config.MaxConsumers != fleet.DefaultMaxConsumers {
			t.Errorf("stream %s: max consumers %d, want %d (the server default would cap the fleet at 1000 edges)", n, cfg.Config.MaxConsumers, fleet.DefaultMaxConsumers)
		}
		leaderReads := n == "KV_"+fleetapi.DefaultDesiredBucket || n == "KV_"+fleet.DefaultControlBucket
		if leaderReads && cfg.Config.AllowDirect {
			t.Errorf("stream %s allows direct gets: a follower behind the leader would answer the fleet's reads", n)
		}
	}
	if err := names.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	want := []string{"KV_" + fleet.DefaultControlBucket, "KV_" + fleetapi.DefaultDesiredBucket, "KV_" + fleetapi.DefaultEdgesBucket,
		"KV_" + fleetapi.DefaultStatusBucket, "KV_" + trust.DefaultBucket, "OBJ_" + fleetapi.DefaultArtifactsBucket, fleetapi.UsageStream}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("streams after init: %v, want %v", got, want)
	}
}

type clusterEdge struct {
	id     string
	rec    *fleettest.Recorder
	agent  *sync.Agent
	cancel context.CancelFunc
	done   chan error
}

// TestRolloutSurvivesLeaderLossOnACluster: a 3-wave rollout over real sync agents (each with its
// own nkey, over TLS, knowing all three nodes) on an R3 cluster. Mid-wave 1 the JetStream meta
// leader's node dies and with it the controller pinned to it: the standby on another node takes
// the lease and carries on. In wave 2 the node leading one of the fleet's streams dies. The
// rollout still ends by its own rules, with every edge on one version and nothing in between.
func TestRolloutSurvivesLeaderLossOnACluster(t *testing.T) {
	var ids []string
	for i := range 9 {
		ids = append(ids, fmt.Sprintf("nuc-%d", i))
	}
	f := startClusterFleet(t, ids)
	f.run(t, "init", "--replicas", "3", "--status-ttl", "15s")

	key, err := manifest.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	keyPEM, err := manifest.MarshalPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	keyFile := filepath.Join(work, "signing.key")
	if err := os.WriteFile(keyFile, keyPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	for i, v := range []string{"1.0.0", "2.0.0"} {
		file := filepath.Join(work, v+".gguf")
		if err := os.WriteFile(file, fleettest.Artifact(uint64(i), 200<<10), 0o644); err != nil {
			t.Fatal(err)
		}
		f.run(t, "publish", "--key", keyFile, "--role", "drafter", "--version", v, "--file", file, "--quiet")
	}

	tr := manifest.NewTrust(key.Public().(ed25519.PublicKey))
	var edges []*clusterEdge
	for _, id := range ids {
		e := &clusterEdge{id: id, rec: &fleettest.Recorder{}, done: make(chan error, 1)}
		e.agent, err = sync.NewAgent(sync.AgentConfig{
			NATSURL: f.c.URLs(), NKeySeedFile: fleet.EdgeSeedPath(f.dir, id), NATSCAFile: filepath.Join(f.dir, pki.CACertFile),
			EdgeID: id, DataDir: t.TempDir(), Heartbeat: 300 * time.Millisecond,
		}, sync.AgentDeps{Trust: tr, Installers: map[string]sync.Installer{manifest.RuntimeOllama: e.rec}})
		if err != nil {
			t.Fatal(err)
		}
		var ctx context.Context
		ctx, e.cancel = context.WithCancel(context.Background())
		go func() { e.done <- e.agent.Run(ctx) }()
		t.Cleanup(func() { e.cancel(); <-e.done })
		edges = append(edges, e)
	}

	// Controller A lives beside the meta leader and dies with it; standby B is on another node.
	meta := f.c.MetaLeader()
	other := (meta + 1) % f.c.Size()
	ctl := map[string]*fleet.Controller{}
	for _, p := range []struct {
		id   string
		node int
	}{{"ctl-a", meta}, {"ctl-b", other}} {
		_, js := f.connect(t, p.id, p.node)
		c, err := fleet.NewController(js, fleet.ControllerConfig{ID: p.id, LeaseTTL: 2 * time.Second, Tick: 200 * time.Millisecond}, nil)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- c.Run(ctx) }()
		t.Cleanup(func() { cancel(); <-done })
		ctl[p.id] = c
		if p.id == "ctl-a" {
			fleettest.Eventually(t, "ctl-a takes the lease first", c.Leader)
		}
	}
	_, js := f.connect(t, "test", -1)
	ctx := context.Background()
	rollout := func() fleet.Rollout {
		r, err := fleet.GetRollout(ctx, js, fleet.Config{}, "drafter")
		if err != nil {
			return fleet.Rollout{}
		}
		return r
	}

	f.run(t, "rollout", "start", "--key", keyFile, "--role", "drafter", "--version", "1.0.0", "--waves", "100%", "--soak", "0s")
	fleettest.Eventually(t, "every edge on 1.0.0", func() bool { return rollout().State == fleet.StateSucceeded })

	f.run(t, "rollout", "start", "--key", keyFile, "--role", "drafter", "--version", "2.0.0",
		"--waves", "34%,67%,100%", "--soak", "2s")
	fleettest.Eventually(t, "wave 1 assigned", func() bool {
		r := rollout()
		return r.Spec.Version == "2.0.0" && r.Wave == 0 && len(r.Members) > 0
	})
	t.Logf("killing n%d: the meta leader, and controller ctl-a with it", meta)
	f.c.Kill(meta)
	fleettest.Eventually(t, "a new meta leader", func() bool { return f.c.MetaLeader() >= 0 })
	fleettest.Eventually(t, "the standby takes the lease", ctl["ctl-b"].Leader)
	if ctl["ctl-a"].Leader() {
		t.Fatal("ctl-a still believes it leads with its node gone")
	}
	f.c.Restart(meta)

	fleettest.Eventually(t, "wave 2 under way", func() bool { r := rollout(); return r.Wave >= 1 })
	victim, stream := -1, ""
	for _, s := range []string{"KV_" + fleetapi.DefaultDesiredBucket, "KV_" + fleet.DefaultControlBucket, "KV_" + fleetapi.DefaultStatusBucket} {
		if l := f.c.StreamLeader(s); l >= 0 && l != other {
			victim, stream = l, s
			break
		}
	}
	if victim < 0 {
		// Every fleet stream is led from the standby controller's node (the elections after the
		// meta leader's death can leave it so): move one leadership away, so that the node killed
		// next is a stream leader without taking the standby controller with it.
		stream = "KV_" + fleetapi.DefaultDesiredBucket
		f.c.StepdownStream(stream)
		fleettest.Eventually(t, "a leader for "+stream+" off the standby's node", func() bool {
			l := f.c.StreamLeader(stream)
			return l >= 0 && l != other
		})
		victim = f.c.StreamLeader(stream)
	}
	t.Logf("killing n%d: leader of %s (rollout at wave %d)", victim, stream, rollout().Wave+1)
	f.c.Kill(victim)
	fleettest.Eventually(t, "a new leader for "+stream, func() bool { return f.c.StreamLeader(stream) >= 0 })
	f.c.Restart(victim)

	fleettest.Eventually(t, "the rollout ends", func() bool { return !rollout().Active() })
	r := rollout()
	t.Logf("rollout %s: %s", r.State, r.Message)
	want := map[string]string{fleet.StateSucceeded: "2.0.0", fleet.StateRolledBack: "1.0.0"}[r.State]
	if want == "" {
		t.Fatalf("rollout ended %s: %s", r.State, r.Message)
	}
	fleettest.Eventually(t, "every edge reports "+want, func() bool {
		for _, e := range edges {
			rs := e.agent.Status().Roles["drafter"]
			if rs.Version != want || rs.State != fleetapi.StateIdle {
				return false
			}
		}
		return true
	})
	for _, e := range edges {
		for _, in := range e.rec.Installs {
			if in != "drafter:1.0.0" && in != "drafter:2.0.0" {
				t.Errorf("%s installed %s", e.id, in)
			}
		}
	}
	var vc fleet.VersionCount
	n := 0
	fleettest.Eventually(t, "fleet status shows one version on every edge", func() bool {
		views, err := fleet.ReadFleet(ctx, js, fleet.Config{}, fleet.Thresholds{}, time.Now())
		if err != nil {
			return false
		}
		vc, n = fleet.RoleVersions(views)["drafter"], len(views)
		return n == len(ids) && !vc.Skewed() && vc.Majority == want
	})
}
