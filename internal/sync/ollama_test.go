package sync_test

import (
	"bytes"
	"context"
	"slices"
	"testing"
	"time"

	"github.com/ollama/ollama/api"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/fleet/fleettest"
	"github.com/sucursal/sucursal/internal/fleetapi"
	"github.com/sucursal/sucursal/internal/ollamatest"
	"github.com/sucursal/sucursal/internal/sync"
	"github.com/sucursal/sucursal/internal/testmodel"
)

func gguf(t *testing.T, spec testmodel.Spec) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := testmodel.Write(&buf, spec); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func tags(t *testing.T, c *api.Client) []string {
	t.Helper()
	list, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range list.Models {
		names = append(names, m.Name)
	}
	return names
}

// The whole edge path against a real Ollama: signed manifest, download, /api/blobs + /api/create,
// one-token smoke test, switch; a broken artifact fails its install and leaves the model running;
// the version before the previous one is collected from the runtime.
func TestInstallIntoRealOllama(t *testing.T) {
	srv := ollamatest.Start(t)
	env := fleettest.Start(t)
	specs := map[string]testmodel.Spec{
		"1.0.0": testmodel.Alphabet(),
		"2.0.0": testmodel.Alphabet().WithPieces("bc"),
		"3.0.0": testmodel.Alphabet().WithPieces("xyz"),
	}
	desired := map[string]fleetapi.Desired{}
	for _, v := range []string{"1.0.0", "2.0.0", "3.0.0"} {
		desired[v] = fleetapi.Desired{Manifest: env.Publish(t, role, v, gguf(t, specs[v]))}
	}
	desired["2.5.0"] = fleetapi.Desired{Manifest: env.Publish(t, role, "2.5.0", fleettest.Artifact(9, 4096))} // not a GGUF

	inst, err := sync.NewOllama(srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	var switched []string
	switchedCh := make(chan string, 8)
	nc, err := env.Hub.Connect("edge-o")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	a, err := sync.NewAgent(sync.AgentConfig{EdgeID: "edge-o", DataDir: t.TempDir(), Heartbeat: time.Second, Buckets: env.Cfg.Buckets},
		sync.AgentDeps{Conn: nc, Trust: env.Trust, Registerer: prometheus.NewRegistry(),
			Installers: map[string]sync.Installer{"ollama": inst},
			OnSwitch:   func(m sync.Model) { switchedCh <- m.Ref }})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	defer func() { cancel(); <-done }()

	c := srv.Client()
	install := func(v string) {
		t.Helper()
		env.SetDesired(t, fleetapi.RoleKey(role), desired[v])
		fleettest.Eventually(t, v+" installed", func() bool { m, _ := a.Model(role); return m.Version == v })
		switched = append(switched, <-switchedCh)
		name := "sucursal-drafter:" + v
		if !slices.Contains(tags(t, c), name) {
			t.Fatalf("%s not in /api/tags: %v", name, tags(t, c))
		}
		var got string
		err := c.Generate(context.Background(), &api.GenerateRequest{Model: name, Prompt: "a", Raw: true,
			Options: map[string]any{"temperature": 0, "num_predict": 4}}, func(r api.GenerateResponse) error {
			got += r.Response
			return nil
		})
		if want := specs[v].Greedy("a", 4); err != nil || got != want {
			t.Fatalf("%s answered %q (err %v), want %q", name, got, err, want)
		}
	}
	install("1.0.0")
	install("2.0.0")

	env.SetDesired(t, fleetapi.RoleKey(role), desired["2.5.0"])
	fleettest.Eventually(t, "broken artifact fails to install", func() bool {
		rs := a.Status().Roles[role]
		return rs.State == fleetapi.StateFailed && rs.FailedVersion == "2.5.0"
	})
	if m, _ := a.Model(role); m.Version != "2.0.0" {
		t.Fatalf("running model is %s after a failed install", m.Version)
	}

	install("3.0.0")
	names := tags(t, c)
	if slices.Contains(names, "sucursal-drafter:1.0.0") || !slices.Contains(names, "sucursal-drafter:2.0.0") {
		t.Fatalf("after 3.0.0, want 1.0.0 collected and 2.0.0 kept for rollback; tags %v", names)
	}
	if want := []string{"sucursal-drafter:1.0.0", "sucursal-drafter:2.0.0", "sucursal-drafter:3.0.0"}; !slices.Equal(switched, want) {
		t.Fatalf("pipeline switched to %v, want %v", switched, want)
	}
}
