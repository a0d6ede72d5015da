package fleet

import (
	"context"
	"log/slog"
	"maps"
	"slices"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"
)

// SiteLabel is the edge label the exporter copies into every per-edge series as `site`, so a
// dashboard can group branches without a join. Edges without it export site="".
const SiteLabel = "site"

// Exporter is a Prometheus collector of the whole fleet, built at each scrape from the edges
// bucket and the live heartbeats (ReadFleet) and the rollout records, so that one scrape of the
// controller covers every edge, including the ones behind NAT that nothing can scrape directly.
// Its labels are edge id, site, role, version, state and label keys/values from enrolment:
// bounded by the size of the fleet, never by its traffic, and never user, key or prompt data.
type Exporter struct {
	js     jetstream.JetStream
	cfg    Config
	th     Thresholds
	leader func() bool // nil: no controller in this process
	log    *slog.Logger
	now    func() time.Time

	readOK, readSeconds, leaderG, natsUp                    *prometheus.Desc
	edges, edgeState, edgeUp, edgeHeard, edgeAge, edgeLabel *prometheus.Desc
	roleInfo, roleRequests, roleErrors, roleFailovers       *prometheus.Desc
	roleTTFT, roleBytes, roleBytesTotal                     *prometheus.Desc
	versions, skewed                                        *prometheus.Desc
	rollState, rollWave, rollWaves, rollMembers, rollUpd    *prometheus.Desc
	usage                                                   usageDescs // exporter_usage.go
}

// NewExporter returns the fleet collector. leader, if set, reports whether this process's
// controller holds the lease.
func NewExporter(js jetstream.JetStream, cfg Config, th Thresholds, leader func() bool, log *slog.Logger) *Exporter {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	edge := []string{"edge", "site"}
	role := []string{"edge", "site", "role"}
	d := func(name, help string, labels ...string) *prometheus.Desc {
		return prometheus.NewDesc("sucursal_fleet_"+name, help, labels, nil)
	}
	return &Exporter{
		js: js, cfg: cfg.WithDefaults(), th: th.WithDefaults(), leader: leader, log: log, now: time.Now,
		readOK:      d("read_ok", "1 when this scrape read the fleet's buckets; 0 means every other fleet series is missing from it."),
		readSeconds: d("read_seconds", "Time this scrape took to read the fleet's buckets."),
		leaderG:     d("controller_leader", "1 while this process's controller holds the lease and carries out rollouts."),
		natsUp:      d("nats_connected", "1 while this process is connected to NATS."),
		edges:       d("edges", "Edges the fleet knows, by state (ONLINE, STALE, OFFLINE).", "state"),
		edgeState:   d("edge_state", "1 for the edge's current state, 0 for the others.", append(edge, "state")...),
		edgeUp:      d("edge_up", "1 while the edge is ONLINE (heard within the stale threshold).", edge...),
		edgeHeard:   d("edge_last_heard_timestamp_seconds", "When the edge's last heartbeat reached NATS (Unix time).", edge...),
		edgeAge:     d("edge_last_heard_age_seconds", "Seconds since the edge's last heartbeat.", edge...),
		edgeLabel:   d("edge_label", "The edge's enrolment labels, one series per label (value 1).", "edge", "key", "value"),
		roleInfo:    d("edge_role_info", "The version an edge runs per role and its sync state (value 1).", append(role, "version", "state")...),
		roleRequests: d("edge_role_requests_total",
			"Requests the edge served on the role's running version since it switched to it (resets at a switch).", role...),
		roleErrors:     d("edge_role_errors_total", "Failed requests on the role's running version since the switch.", role...),
		roleFailovers:  d("edge_role_failovers_total", "Requests not served by the primary DC on the role's running version since the switch.", role...),
		roleTTFT:       d("edge_role_ttft_p95_seconds", "The edge's p95 time to first token on the role's running version, as it last reported.", role...),
		roleBytes:      d("edge_role_download_bytes", "Bytes of the role's next version downloaded so far (0 when not downloading).", role...),
		roleBytesTotal: d("edge_role_download_size_bytes", "Size of the role's version being downloaded (0 when not downloading).", role...),
		versions:       d("role_version_edges", "Edges running each version of a role (version \"\" = nothing installed).", "role", "version"),
		skewed:         d("role_skewed", "1 while a role's edges run more than one version.", "role"),
		rollState:      d("rollout_state", "1 for the state of each role's latest rollout (running, paused, aborted, succeeded, rolled_back), 0 for the others.", "role", "version", "state"),
		rollWave:       d("rollout_wave", "The current wave of each role's latest rollout, from 1.", "role"),
		rollWaves:      d("rollout_waves", "How many waves each role's latest rollout has.", "role"),
		rollMembers:    d("rollout_members", "Edges given the new version so far by each role's latest rollout.", "role"),
		rollUpd:        d("rollout_updated_timestamp_seconds", "When each role's latest rollout record last changed (Unix time).", "role"),
		usage:          newUsageDescs(d, edge),
	}
}

var rolloutStates = []string{StateRunning, StatePaused, StateAborted, StateSucceeded, StateRolledBack}

// Describe implements prometheus.Collector.
func (x *Exporter) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{x.readOK, x.readSeconds, x.leaderG, x.natsUp, x.edges, x.edgeState, x.edgeUp,
		x.edgeHeard, x.edgeAge, x.edgeLabel, x.roleInfo, x.roleRequests, x.roleErrors, x.roleFailovers, x.roleTTFT,
		x.roleBytes, x.roleBytesTotal, x.versions, x.skewed, x.rollState, x.rollWave, x.rollWaves, x.rollMembers, x.rollUpd} {
		ch <- d
	}
	x.usage.describe(ch)
}

// Collect implements prometheus.Collector: it reads the fleet once per scrape.
func (x *Exporter) Collect(ch chan<- prometheus.Metric) {
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	counter := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v, labels...)
	}
	if x.leader != nil {
		gauge(x.leaderG, b2f(x.leader()))
	}
	gauge(x.natsUp, b2f(x.js.Conn().IsConnected()))

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	start := x.now()
	edges, err := ReadFleet(ctx, x.js, x.cfg, x.th, start)
	var rollouts []Rollout
	if err == nil {
		rollouts, err = ListRollouts(ctx, x.js, x.cfg)
	}
	gauge(x.readSeconds, time.Since(start).Seconds())
	if err != nil {
		x.log.Warn("fleet exporter: read the fleet", "err", err)
		gauge(x.readOK, 0)
		return
	}
	gauge(x.readOK, 1)

	counts := map[string]int{}
	for _, e := range edges {
		counts[e.State]++
		site := e.Labels[SiteLabel]
		for _, s := range EdgeStates {
			gauge(x.edgeState, b2f(e.State == s), e.EdgeID, site, s)
		}
		gauge(x.edgeUp, b2f(e.State == EdgeOnline), e.EdgeID, site)
		gauge(x.edgeHeard, float64(e.Heard.UnixMilli())/1000, e.EdgeID, site)
		gauge(x.edgeAge, e.Age.Seconds(), e.EdgeID, site)
		for _, k := range slices.Sorted(maps.Keys(e.Labels)) {
			gauge(x.edgeLabel, 1, e.EdgeID, k, e.Labels[k])
		}
		for _, role := range slices.Sorted(maps.Keys(e.Roles)) {
			rs := e.Roles[role]
			gauge(x.roleInfo, 1, e.EdgeID, site, role, rs.Version, rs.State)
			counter(x.roleRequests, float64(rs.Health.Requests), e.EdgeID, site, role)
			counter(x.roleErrors, float64(rs.Health.Errors), e.EdgeID, site, role)
			counter(x.roleFailovers, float64(rs.Health.Failovers), e.EdgeID, site, role)
			gauge(x.roleTTFT, rs.Health.TTFTP95Ms/1000, e.EdgeID, site, role)
			gauge(x.roleBytes, float64(rs.BytesDone), e.EdgeID, site, role)
			gauge(x.roleBytesTotal, float64(rs.BytesTotal), e.EdgeID, site, role)
		}
		x.usage.collect(gauge, e, site)
	}
	for _, s := range EdgeStates {
		gauge(x.edges, float64(counts[s]), s)
	}
	for role, vc := range RoleVersions(edges) {
		for v, n := range vc.Versions {
			gauge(x.versions, float64(n), role, v)
		}
		gauge(x.skewed, b2f(vc.Skewed()), role)
	}
	for _, r := range rollouts {
		role := r.Spec.Role
		for _, s := range rolloutStates {
			gauge(x.rollState, b2f(r.State == s), role, r.Spec.Version, s)
		}
		gauge(x.rollWave, float64(r.Wave+1), role)
		gauge(x.rollWaves, float64(len(r.Spec.Waves)), role)
		gauge(x.rollMembers, float64(len(r.Members)), role)
		gauge(x.rollUpd, float64(r.Updated.UnixMilli())/1000, role)
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
