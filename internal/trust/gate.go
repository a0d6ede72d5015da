package trust

import (
	"crypto/tls"
	"crypto/x509"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/pki"
)

// logEvery is how often one refusal reason may be logged; the rest are counted and summed into
// the next line, so that a misconfigured edge redialling every second cannot flood the log.
const logEvery = 10 * time.Second

// Gate is the gateway's side of fleet trust: it admits handshakes by the list in its store,
// counts and logs (rate-limited) every refused one, keeps one live connection per edge id and
// closes live connections a new list no longer admits.
//
// A second connection with the id of a connected edge replaces the first. Refusing it instead
// would lock a real edge out for its idle timeout whenever it redials after a network blip (the
// gateway still holds its dead connection); replacing means two holders of one certificate keep
// kicking each other off, which the duplicate counter and the warning show at once.
type Gate struct {
	store *Store
	log   *slog.Logger
	now   func() time.Time
	v     *pki.EdgeVerifier

	refused    *prometheus.CounterVec
	replaced   prometheus.Counter
	closed     *prometheus.CounterVec
	version    prometheus.Gauge
	enrolled   prometheus.Gauge
	mu         sync.Mutex
	sessions   map[string]*session
	lastLog    map[string]time.Time
	suppressed map[string]int
}

type session struct {
	leaf  *x509.Certificate
	close func(msg string)
}

// NewGate returns a gate over store; its metrics go to reg (nil: not registered). A nil store
// enforces no list (any certificate of the fleet CA is admitted) but still counts and logs refused
// handshakes and keeps one connection per edge id.
func NewGate(store *Store, reg prometheus.Registerer, log *slog.Logger) *Gate {
	g := &Gate{
		store: store, log: log, now: time.Now,
		sessions: map[string]*session{}, lastLog: map[string]time.Time{}, suppressed: map[string]int{},
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "sucursal", Subsystem: "gateway", Name: "handshake_refused_total",
			Help: "Edge TLS handshakes refused, by reason (no_client_cert, foreign_ca, expired, not_edge_cert, unenrolled, revoked).",
		}, []string{"reason"}),
		replaced: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: "sucursal", Subsystem: "gateway", Name: "duplicate_edge_connections_total",
			Help: "Connections that replaced a live connection with the same edge id (a redial, or a cloned certificate).",
		}),
		closed: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "sucursal", Subsystem: "gateway", Name: "trust_closed_connections_total",
			Help: "Live edge connections closed because a new trust list no longer admits them, by reason.",
		}, []string{"reason"}),
		version: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: "sucursal", Subsystem: "gateway", Name: "trust_list_version",
			Help: "Version of the enrolment and revocation list in force (0: none yet, no edge admitted).",
		}),
		enrolled: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: "sucursal", Subsystem: "gateway", Name: "trust_enrolled_edges",
			Help: "Edges the list in force enrols.",
		}),
	}
	for _, r := range []string{pki.ReasonNoClientCert, pki.ReasonForeignCA, pki.ReasonExpired, pki.ReasonNotEdge, pki.ReasonUnenrolled, pki.ReasonRevoked} {
		g.refused.WithLabelValues(r) // present at 0, so a rate() works from the start
	}
	if reg != nil {
		reg.MustRegister(g.refused, g.replaced, g.closed, g.version, g.enrolled)
	}
	if store == nil {
		return g
	}
	store.OnChange(g.listChanged)
	if l := store.Current(); l != nil {
		g.version.Set(float64(l.Version))
		g.enrolled.Set(float64(len(l.Enrolled)))
	}
	return g
}

// TLS builds the gateway's TLS config from the PKI directory with this gate's admission.
func (g *Gate) TLS(pkiDir string) (*tls.Config, error) {
	conf, v, err := pki.GatewayTLS(pkiDir, pki.Admission{Admit: g.Admit, Refused: g.Refused, Now: g.now})
	if err != nil {
		return nil, err
	}
	g.v = v
	return conf, nil
}

// Admit is pki.Admission.Admit: the list in force decides.
func (g *Gate) Admit(id string, leaf *x509.Certificate) error {
	if g.store == nil {
		return nil
	}
	return g.store.Current().Check(id, leaf, g.now())
}

// Refused is pki.Admission.Refused: count, and log at most once per reason every logEvery.
func (g *Gate) Refused(reason string, err error) {
	g.refused.WithLabelValues(reason).Inc()
	now := g.now()
	g.mu.Lock()
	if now.Sub(g.lastLog[reason]) < logEvery {
		g.suppressed[reason]++
		g.mu.Unlock()
		return
	}
	n := g.suppressed[reason]
	g.lastLog[reason], g.suppressed[reason] = now, 0
	g.mu.Unlock()
	g.log.Warn("edge handshake refused", "reason", reason, "err", err.Error(), "suppressed_since_last", n)
}

// PeerEdgeID returns the verified edge id of an accepted connection (see pki.EdgeVerifier).
func (g *Gate) PeerEdgeID(cs tls.ConnectionState) (string, error) {
	if g.v == nil {
		return pki.PeerEdgeID(cs)
	}
	return g.v.PeerEdgeID(cs)
}

// Claim registers the live connection of edgeID; close ends it with a message the edge logs. A
// connection already registered for the id is closed first. The returned release must be called
// when the connection ends.
func (g *Gate) Claim(edgeID string, leaf *x509.Certificate, close func(msg string)) (release func()) {
	s := &session{leaf: leaf, close: close}
	g.mu.Lock()
	old := g.sessions[edgeID]
	g.sessions[edgeID] = s
	g.mu.Unlock()
	if old != nil {
		g.replaced.Inc()
		same := old.leaf != nil && leaf != nil && old.leaf.Equal(leaf)
		g.log.Warn("second connection for a connected edge: replacing the first (a redial, or a cloned certificate if this repeats)",
			"edge_id", edgeID, "same_certificate", same)
		old.close("replaced by a newer connection with the same edge id")
	}
	return func() {
		g.mu.Lock()
		if g.sessions[edgeID] == s {
			delete(g.sessions, edgeID)
		}
		g.mu.Unlock()
	}
}

// Connected is the number of edges with a live connection.
func (g *Gate) Connected() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.sessions)
}

// listChanged closes every live connection the new list does not admit (a revoked or unenrolled
// edge loses its link at once, not at its next handshake).
func (g *Gate) listChanged(l *List) {
	g.version.Set(float64(l.Version))
	g.enrolled.Set(float64(len(l.Enrolled)))
	now := g.now()
	type victim struct {
		id  string
		s   *session
		err error
	}
	var out []victim
	g.mu.Lock()
	for id, s := range g.sessions {
		if s.leaf == nil {
			continue
		}
		if err := l.Check(id, s.leaf, now); err != nil {
			out = append(out, victim{id, s, err})
			delete(g.sessions, id)
		}
	}
	g.mu.Unlock()
	for _, v := range out {
		reason := pki.ReasonOf(v.err)
		g.closed.WithLabelValues(reason).Inc()
		g.log.Warn("closing edge connection: the trust list no longer admits it", "edge_id", v.id, "reason", reason)
		v.s.close("the fleet " + reason + " this edge: " + v.err.Error())
	}
}
