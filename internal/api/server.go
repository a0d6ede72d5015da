package api

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/admission"
	"github.com/sucursal/sucursal/internal/apikey"
	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/pipeline"
)

// DefaultMaxBodyBytes is the default request body limit.
const DefaultMaxBodyBytes = 4 << 20

// Config is the HTTP endpoint's part of the edge-agent's configuration (top-level YAML keys and
// the auth: section).
type Config struct {
	// Listen is the address branch users call; MetricsListen serves /metrics on its own address
	// (empty: on Listen).
	Listen        string `yaml:"listen"`
	MetricsListen string `yaml:"metrics_listen"`
	// MaxBodyBytes limits a request body.
	MaxBodyBytes int64 `yaml:"max_body_bytes"`
	// RequestTimeout bounds a whole request, streaming included (0 = no bound beyond the client's).
	RequestTimeout time.Duration `yaml:"request_timeout"`
	// SlowClientTimeout bounds one write to a client that stopped reading; the request is then
	// cancelled, upstream too (0 = no bound).
	SlowClientTimeout time.Duration `yaml:"slow_client_timeout"`
	// BodyReadTimeout bounds reading a request's headers and body (a client sending a byte a
	// second is cut); IdleTimeout closes a keep-alive connection left idle; MaxConnections bounds
	// the connections open at once (further ones wait in the kernel's backlog).
	BodyReadTimeout time.Duration `yaml:"body_read_timeout"`
	IdleTimeout     time.Duration `yaml:"idle_timeout"`
	MaxConnections  int           `yaml:"max_connections"`
	// AllowedHosts are the Host headers the endpoint answers (DNS rebinding): the listen address,
	// localhost and 127.0.0.1 always; add the NUC's LAN names when it serves the LAN.
	AllowedHosts []string `yaml:"allowed_hosts"`
	// CORSOrigins are the web origins allowed to call the endpoint from a browser (default none:
	// branch pages cannot submit prompts or read answers).
	CORSOrigins []string `yaml:"cors_origins"`
	// TLSCert and TLSKey serve the endpoint over HTTPS (a branch CA's or the fleet PKI's
	// certificate); empty: plain HTTP.
	TLSCert string `yaml:"tls_cert"`
	TLSKey  string `yaml:"tls_key"`
	// Auth configures API keys.
	Auth AuthConfig `yaml:"auth"`
	// Decode widens the request allow-list by name (the `egress:` section).
	Decode chat.DecodeOptions `yaml:"-"`
}

// AuthConfig is the `auth:` section.
type AuthConfig struct {
	// KeysFile holds the API keys (hashes only), written by `edge-agent keys`; re-read when it
	// changes. Empty: no keys, which is allowed only on a loopback listen address.
	KeysFile string `yaml:"keys_file"`
	// InsecureNoAuth serves a non-loopback address without keys: anyone on the LAN may send
	// prompts and read answers. Only for a closed lab network.
	InsecureNoAuth bool `yaml:"insecure_no_auth"`
}

// DefaultConfig: loopback only, 4 MiB bodies, 10 min per request, 60 s for a client that
// stopped reading, 30 s to send a request, 2 min idle keep-alive, 256 connections.
func DefaultConfig() Config {
	return Config{Listen: "127.0.0.1:8080", MaxBodyBytes: DefaultMaxBodyBytes, RequestTimeout: 10 * time.Minute,
		SlowClientTimeout: 60 * time.Second, BodyReadTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute, MaxConnections: 256}
}

// Loopback reports whether addr (host:port) only listens on the loopback interface.
func Loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Validate lists every problem at once.
func (c Config) Validate() error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if _, _, err := net.SplitHostPort(c.Listen); err != nil {
		bad("listen: %q is not host:port", c.Listen)
	}
	if c.MetricsListen != "" {
		if _, _, err := net.SplitHostPort(c.MetricsListen); err != nil {
			bad("metrics_listen: %q is not host:port", c.MetricsListen)
		}
	}
	if c.MaxBodyBytes <= 0 {
		bad("max_body_bytes must be positive")
	}
	for name, d := range map[string]time.Duration{"slow_client_timeout": c.SlowClientTimeout, "request_timeout": c.RequestTimeout,
		"body_read_timeout": c.BodyReadTimeout, "idle_timeout": c.IdleTimeout} {
		if d < 0 {
			bad("%s must not be negative", name)
		}
	}
	if c.MaxConnections < 0 {
		bad("max_connections must not be negative (0: no bound)")
	}
	if (c.TLSCert == "") != (c.TLSKey == "") {
		bad("tls_cert and tls_key go together")
	}
	for i, o := range c.CORSOrigins {
		if u, err := url.Parse(o); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" {
			bad("cors_origins[%d]: %q is not an origin such as https://intranet.branch.example", i, o)
		}
	}
	if c.Auth.KeysFile == "" && !c.Auth.InsecureNoAuth && !Loopback(c.Listen) {
		bad("listen %s is not a loopback address: set auth.keys_file (edge-agent keys add) so only branch apps with a key can call it, or --insecure-no-auth for a closed lab network", c.Listen)
	}
	if err := c.Decode.Validate(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// ModelLister answers GET /v1/models (the DC target's list, later with local models).
type ModelLister interface {
	Models(ctx context.Context) (json.RawMessage, error)
}

// ReadyFunc reports readiness and, when not ready, why.
type ReadyFunc func() (bool, error)

// Deps are what the endpoint serves and checks with.
type Deps struct {
	Chat   pipeline.Handler
	Models ModelLister
	Ready  ReadyFunc
	// Metrics serves /metrics on this listener (nil: served elsewhere, metrics_listen).
	Metrics http.Handler
	// Keys checks API keys (nil: no keys — loopback only, or auth.insecure_no_auth).
	Keys *apikey.Store
	// Admission decides whether a request enters (nil: every request enters at once).
	Admission  *admission.Controller
	Registerer prometheus.Registerer
	Log        *slog.Logger
}

// Server is the HTTP handler.
type Server struct {
	cfg    Config
	d      Deps
	detail func() any
	m      *metrics
	mux    *http.ServeMux
	hosts  map[string]bool
	anyIP  bool // a non-loopback listen address with no allowed_hosts: IP-literal Host headers pass
	// draining: the agent is stopping, new chat requests are refused (Drain); active counts the
	// chat requests in flight.
	draining atomic.Bool
	active   atomic.Int64
}

// New builds the handler.
func New(cfg Config, d Deps) *Server {
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	s := &Server{cfg: cfg, d: d, m: newMetrics(d.Registerer)}
	s.hosts = map[string]bool{"localhost": true, "127.0.0.1": true, "::1": true}
	if host, _, err := net.SplitHostPort(cfg.Listen); err == nil && host != "" && host != "0.0.0.0" && host != "::" {
		s.hosts[strings.ToLower(host)] = true
	}
	for _, h := range cfg.AllowedHosts {
		s.hosts[strings.ToLower(h)] = true
	}
	s.anyIP = !Loopback(cfg.Listen) && len(cfg.AllowedHosts) == 0
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.handleChat)
	mux.HandleFunc("GET /v1/models", s.handleModels)
	mux.HandleFunc("GET /healthz", s.handleHealthz)
	mux.HandleFunc("GET /readyz", s.handleReadyz)
	if d.Metrics != nil {
		mux.HandleFunc("GET /metrics", s.handleMetrics)
	}
	mux.HandleFunc("/v1/chat/completions", methodNotAllowed("POST"))
	mux.HandleFunc("/v1/models", methodNotAllowed("GET"))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, &chat.Error{Status: http.StatusNotFound, Type: "invalid_request_error", Code: chat.CodeUnknownURL,
			Message: fmt.Sprintf("unknown URL: %s %s", r.Method, sanitizePath(r.URL.Path))})
	})
	s.mux = mux
	return s
}

// ServeHTTP applies the browser-safety rules to every request, then routes it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if e := s.checkBrowser(w, r); e != nil {
		if e.Status != 0 {
			writeError(w, e)
		}
		return
	}
	s.mux.ServeHTTP(w, r)
}

// SetReadyDetail adds a "backends" field to /readyz (the state of every route and breaker) for
// callers allowed to see it.
func (s *Server) SetReadyDetail(f func() any) { s.detail = f }

func methodNotAllowed(allow string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allow)
		writeError(w, &chat.Error{Status: http.StatusMethodNotAllowed, Type: "invalid_request_error", Code: chat.CodeMethodNotAllowed,
			Message: fmt.Sprintf("%s is not allowed here; use %s", r.Method, allow)})
	}
}

func (s *Server) handleHealthz(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"status":"ok"}` + "\n"))
}

// operator reports whether the caller may see operator details (/metrics, the routes in
// /readyz) on the API listener: anyone on a loopback endpoint, a key with the metrics scope on a
// LAN one.
func (s *Server) operator(r *http.Request) bool {
	if s.d.Keys == nil {
		return Loopback(s.cfg.Listen)
	}
	k, err := s.d.Keys.Verify(r.Context(), bearer(r))
	return err == nil && k.Has(apikey.ScopeMetrics)
}

func (s *Server) handleReadyz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	ok, err := s.d.Ready()
	body := map[string]any{"status": "ready", "dc_link": "up"}
	if !ok {
		body = map[string]any{"status": "not_ready", "dc_link": "down"}
	}
	if s.draining.Load() { // a load balancer in front of several NUCs stops sending here
		ok, err = false, nil
		body["status"], body["reason"] = "not_ready", CodeShuttingDown
	}
	if s.operator(r) {
		if !ok && err != nil {
			body["reason"] = err.Error()
		}
		if s.detail != nil {
			body["backends"] = s.detail()
		}
	}
	b, _ := json.Marshal(body)
	if !ok {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
	_, _ = w.Write(append(b, '\n'))
}

func (s *Server) handleMetrics(w http.ResponseWriter, r *http.Request) {
	if !s.operator(r) {
		writeError(w, &chat.Error{Status: http.StatusForbidden, Type: "authentication_error", Code: CodePermissionDenied,
			Message: "metrics on the branch endpoint need a key with the metrics scope (or use metrics_listen)"})
		return
	}
	s.d.Metrics.ServeHTTP(w, r)
}

func (s *Server) handleModels(w http.ResponseWriter, r *http.Request) {
	if _, e := s.authorize(r, apikey.ScopeChat); e != nil {
		writeError(w, e)
		return
	}
	body, err := s.d.Models.Models(r.Context())
	if err != nil {
		writeError(w, asChatError(err))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}

// readRequest applies every input check, each with its own error code.
func (s *Server) readRequest(w http.ResponseWriter, r *http.Request) (*chat.Request, *chat.Error) {
	body, err := readBody(http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes), r.ContentLength, s.cfg.MaxBodyBytes)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, &chat.Error{Status: http.StatusRequestEntityTooLarge, Type: "invalid_request_error", Code: chat.CodeRequestTooLarge,
				Message: fmt.Sprintf("the request body is larger than the limit of %d bytes", s.cfg.MaxBodyBytes)}
		}
		return nil, chat.InvalidRequest(chat.CodeUnreadableBody, "", "could not read the request body")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, chat.InvalidRequest(chat.CodeInvalidJSON, "", "the request body is empty; send a JSON object")
	}
	// encoding/json would silently replace invalid UTF-8 with U+FFFD and the model would see text
	// the user did not send: refuse it instead.
	if !utf8.Valid(body) {
		return nil, chat.InvalidRequest(chat.CodeInvalidUTF8, "", "the request body is not valid UTF-8")
	}
	// The one place a request is read: strictly, into the allow-listed types (see package chat).
	return chat.DecodeRequest(body, s.cfg.Decode)
}

// readBody reads a body into one buffer of its declared size (io.ReadAll would grow through
// copies twice its size: memory a large request does not need to cost).
func readBody(r io.Reader, contentLength, limit int64) ([]byte, error) {
	if contentLength < 0 || contentLength > limit {
		return io.ReadAll(r)
	}
	b := make([]byte, contentLength)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, err
	}
	var one [1]byte
	if n, _ := r.Read(one[:]); n > 0 { // more than declared: the server would have cut it anyway
		return nil, errors.New("api: body longer than its Content-Length")
	}
	return b, nil
}

func asChatError(err error) *chat.Error {
	var ce *chat.Error
	if errors.As(err, &ce) {
		return ce
	}
	return chat.Internal("the edge agent failed to serve the request")
}

func writeError(w http.ResponseWriter, e *chat.Error) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	if e.RetryAfter > 0 {
		h.Set("Retry-After", strconv.Itoa(int((e.RetryAfter+time.Second-1)/time.Second)))
	}
	if e.Status == http.StatusUnauthorized {
		h.Set("WWW-Authenticate", `Bearer realm="sucursal"`) // RFC 6750 §3: say how to authenticate
	}
	w.WriteHeader(e.Status)
	b, _ := json.Marshal(e)
	_, _ = w.Write(append(b, '\n'))
}

func newRequestID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "req-" + hex.EncodeToString(b[:])
}

func sanitizePath(p string) string {
	if len(p) > 64 {
		p = p[:64] + "…"
	}
	return strconv.QuoteToASCII(p)[1 : len(strconv.QuoteToASCII(p))-1]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
