package sync_test

import (
	"testing"

	"github.com/sucursal/sucursal/internal/fleet/fleettest"
	"github.com/sucursal/sucursal/internal/fleetapi"
)

// An agent stopped in the middle of a download picks it up where its last persisted window ended
// when it starts again on the same data dir.
func TestAgentResumesDownloadAfterRestart(t *testing.T) {
	env := fleettest.Start(t)
	const window = 4
	data := fleettest.Artifact(60, 6<<20)
	d := env.Publish(t, role, "1.0.0", data)
	total := uint64((len(data) + 128<<10 - 1) / (128 << 10)) // the object store's default chunk size
	dir := t.TempDir()

	// The bandwidth limit only makes the download slow enough to stop it in the middle.
	first := env.RunAgent(t, "edge-k", fleettest.AgentOptions{DataDir: dir, Window: window, BandwidthLimit: 2 << 20})
	env.SetDesired(t, fleetapi.RoleKey(role), fleetapi.Desired{Manifest: d})
	fleettest.Eventually(t, "half downloaded", func() bool {
		rs := first.Status().Roles[role]
		return rs.State == fleetapi.StateDownloading && rs.BytesDone >= int64(len(data))/2
	})
	first.Stop(t)
	c1, _ := first.FetchCounters()
	if _, ok := first.Model(role); ok || c1 >= total {
		t.Fatalf("first run finished (%d of %d chunks); nothing to resume", c1, total)
	}

	second := env.RunAgent(t, "edge-k", fleettest.AgentOptions{DataDir: dir, Window: window})
	fleettest.Eventually(t, "installed after restart", func() bool { m, _ := second.Model(role); return m.Version == "1.0.0" })
	c2, _ := second.FetchCounters()
	if redone := c1 + c2 - total; redone > window {
		t.Fatalf("first run %d + second run %d chunks = %d fetched twice, more than one window (%d)", c1, c2, redone, window)
	}
	t.Logf("stopped after %d chunks, resumed with %d of %d", c1, c2, total)
}
