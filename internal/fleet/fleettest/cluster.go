package fleettest

import (
	"fmt"
	"io/fs"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/sucursal/sucursal/internal/fleet"
)

// Cluster is an n-node nats-server cluster with JetStream on loopback, each node in this process
// with its own store, fixed ports (so a killed node comes back where it was) and the routes of
// all the others — the shape of a production R3 deployment, on one machine.
type Cluster struct {
	t     testing.TB
	name  string
	opts  []*server.Options
	nodes []*server.Server // nil while killed
}

// StartCluster starts n nodes and waits until the JetStream meta leader counts every node as an
// online peer (a meta leader alone is not enough: until it has heard from a node, placing an R3
// stream fails with "no suitable peers for placement, peer offline"). With auth, every node
// enforces the hub's nkey users and client TLS (fleetctl hub --pki's credentials); routes stay
// plain, on loopback.
func StartCluster(t testing.TB, n int, auth *fleet.HubAuth) *Cluster {
	t.Helper()
	c := &Cluster{t: t, name: "sucursal-test", nodes: make([]*server.Server, n)}
	clientPorts, routePorts := freePorts(t, n), freePorts(t, n)
	var routes []string
	for _, p := range routePorts {
		routes = append(routes, fmt.Sprintf("nats-route://127.0.0.1:%d", p))
	}
	base := t.TempDir()
	for i := range n {
		o := &server.Options{
			ServerName: fmt.Sprintf("n%d", i), Host: "127.0.0.1", Port: clientPorts[i],
			JetStream: true, StoreDir: filepath.Join(base, fmt.Sprintf("n%d", i)),
			NoSigs: true, NoLog: true,
			Cluster: server.ClusterOpts{Name: c.name, Host: "127.0.0.1", Port: routePorts[i]},
			Routes:  server.RoutesFromStr(strings.Join(routes, ",")),
		}
		if auth != nil {
			o.Nkeys = auth.Users
			o.TLS, o.TLSConfig, o.TLSTimeout = true, auth.TLS, 2
		}
		c.opts = append(c.opts, o)
	}
	for i := range n {
		c.start(i)
	}
	t.Cleanup(func() {
		for i := range c.nodes {
			c.Kill(i)
		}
	})
	c.WaitPeersOnline()
	return c
}

func freePorts(t testing.TB, n int) []int {
	t.Helper()
	var ls []net.Listener
	var out []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		out = append(out, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		_ = l.Close()
	}
	return out
}

func (c *Cluster) start(i int) {
	c.t.Helper()
	s, err := server.NewServer(c.opts[i].Clone())
	if err != nil {
		c.t.Fatalf("cluster node n%d: %v", i, err)
	}
	s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		s.Shutdown()
		c.t.Fatalf("cluster node n%d did not become ready", i)
	}
	c.nodes[i] = s
}

// Size is the number of nodes, running or not.
func (c *Cluster) Size() int { return len(c.nodes) }

// URL is node i's client URL (tls:// when the cluster enforces TLS).
func (c *Cluster) URL(i int) string {
	scheme := "nats"
	if c.opts[i].TLS {
		scheme = "tls"
	}
	return fmt.Sprintf("%s://127.0.0.1:%d", scheme, c.opts[i].Port)
}

// URLs is every node's client URL, comma-separated, as a client configured for the cluster has.
func (c *Cluster) URLs() string {
	var us []string
	for i := range c.nodes {
		us = append(us, c.URL(i))
	}
	return strings.Join(us, ",")
}

// Kill stops node i at once (its clients lose their connection); a killed node stays down until
// Restart.
func (c *Cluster) Kill(i int) {
	if s := c.nodes[i]; s != nil {
		s.Shutdown()
		s.WaitForShutdown()
		c.nodes[i] = nil
	}
}

// Restart brings a killed node back on its ports and store and waits until the meta leader
// counts it online again.
func (c *Cluster) Restart(i int) {
	c.t.Helper()
	if c.nodes[i] == nil {
		c.start(i)
		c.WaitPeersOnline()
	}
}

// WaitPeersOnline waits until a meta leader is elected and counts every running node as an
// online JetStream peer (one it has current stats from), as nats-server's own cluster tests do
// before they place replicated streams.
func (c *Cluster) WaitPeersOnline() {
	c.t.Helper()
	running := 0
	for _, s := range c.nodes {
		if s != nil {
			running++
		}
	}
	Eventually(c.t, fmt.Sprintf("the meta leader counting %d online peers", running), func() bool {
		l := c.MetaLeader()
		return l >= 0 && len(c.nodes[l].JetStreamClusterPeers()) >= running
	})
}

// MetaLeader is the index of the node leading the JetStream meta group, or -1.
func (c *Cluster) MetaLeader() int {
	for i, s := range c.nodes {
		if s != nil && s.JetStreamIsLeader() {
			return i
		}
	}
	return -1
}

// WaitMetaLeader waits until a meta leader is elected and returns it.
func (c *Cluster) WaitMetaLeader() int {
	c.t.Helper()
	leader := -1
	Eventually(c.t, "a JetStream meta leader", func() bool {
		leader = c.MetaLeader()
		return leader >= 0
	})
	return leader
}

// StreamLeader is the index of the node leading a stream's raft group (KV bucket b is stream
// KV_b), or -1.
func (c *Cluster) StreamLeader(stream string) int {
	for i, s := range c.nodes {
		if s != nil && s.JetStreamIsStreamLeader(server.DEFAULT_GLOBAL_ACCOUNT, stream) {
			return i
		}
	}
	return -1
}

// StepdownStream asks stream's leader to hand its leadership to another replica (a test that
// needs the leader off one node). It fails the test when the stream has no leader.
func (c *Cluster) StepdownStream(stream string) {
	c.t.Helper()
	l := c.StreamLeader(stream)
	if l < 0 {
		c.t.Fatalf("stream %s has no leader to step down", stream)
	}
	if err := c.nodes[l].JetStreamStepdownStream(server.DEFAULT_GLOBAL_ACCOUNT, stream); err != nil {
		c.t.Fatalf("step down the leader of %s: %v", stream, err)
	}
}

// Connect dials the cluster with opts; with only is ≥ 0 the client knows node only and ignores
// the others the cluster advertises, as a process beside that node that dies with it.
func (c *Cluster) Connect(name string, only int, opts ...nats.Option) *nats.Conn {
	c.t.Helper()
	url := c.URLs()
	opts = append([]nats.Option{nats.Name(name), nats.MaxReconnects(-1), nats.ReconnectWait(100 * time.Millisecond)}, opts...)
	if only >= 0 {
		url = c.URL(only)
		opts = append(opts, nats.IgnoreDiscoveredServers())
	}
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		c.t.Fatalf("connect %s: %v", url, err)
	}
	c.t.Cleanup(nc.Close)
	return nc
}

// Msgs are message counters summed over the running nodes (routes included, so a replicated
// write counts on every node it reaches).
type Msgs struct{ In, Out int64 }

// Varz sums the running nodes' message counters.
func (c *Cluster) Varz() Msgs {
	var m Msgs
	for _, s := range c.nodes {
		if s == nil {
			continue
		}
		if v, err := s.Varz(nil); err == nil {
			m.In += v.InMsgs
			m.Out += v.OutMsgs
		}
	}
	return m
}

// StoreBytes is the size of every node's JetStream store on disk, summed: what the fleet's
// buckets cost in storage at their replica count.
func (c *Cluster) StoreBytes() int64 {
	var n int64
	for _, o := range c.opts {
		_ = filepath.WalkDir(o.StoreDir, func(_ string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				if fi, err := d.Info(); err == nil {
					n += fi.Size()
				}
			}
			return nil
		})
	}
	return n
}
