package ollamatest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ollama/ollama/api"
)

const (
	// readyTimeout bounds one start; a healthy start takes well under a second here.
	readyTimeout = 60 * time.Second
	// bindRetries covers the short window in which another process may take a released port.
	bindRetries = 5
	logTailSize = 4 << 10
)

// Option changes how Start runs the server.
type Option func(*config)

type config struct {
	numParallel int
	keepAlive   string
	env         []string
}

// NumParallel sets OLLAMA_NUM_PARALLEL (requests one model serves at once).
func NumParallel(n int) Option { return func(c *config) { c.numParallel = n } }

// KeepAlive sets OLLAMA_KEEP_ALIVE; the default keeps models loaded for the server's lifetime.
func KeepAlive(d time.Duration) Option { return func(c *config) { c.keepAlive = d.String() } }

// Env adds "KEY=value" entries to the server's environment, after the ones Start sets.
func Env(kv ...string) Option { return func(c *config) { c.env = append(c.env, kv...) } }

// Server is a running (or stopped) `ollama serve` owned by one test. Its methods are meant to be
// called from that test's goroutine; Client and HTTPClient may be used from any goroutine.
type Server struct {
	URL  string // http://127.0.0.1:PORT
	Port int
	Dir  string // HOME, models and the log live here
	Log  string // path of the server's log file

	bin       string
	cfg       config
	transport *http.Transport // shared by every client, so cleanup can close its connections
	hold      *portHold
	cmd       *exec.Cmd
	done      chan struct{} // closed when cmd has been waited for
}

// Start runs `ollama serve` on a free loopback port with HOME and OLLAMA_MODELS in t.TempDir(), waits
// for /api/version, and registers a cleanup that kills it and waits. It calls t.Fatal (never Skip)
// if the binary is missing or the server does not come up.
func Start(t testing.TB, opts ...Option) *Server {
	t.Helper()
	bin, err := Binary()
	if err != nil {
		t.Fatalf("%v", err)
	}
	s := &Server{
		bin: bin, Dir: t.TempDir(), cfg: config{keepAlive: "-1"},
		transport: http.DefaultTransport.(*http.Transport).Clone(),
	}
	for _, o := range opts {
		o(&s.cfg)
	}
	s.Log = filepath.Join(s.Dir, "ollama.log")
	for _, d := range []string{"home", "models", "tmp"} {
		if err := os.MkdirAll(filepath.Join(s.Dir, d), 0o755); err != nil {
			t.Fatalf("ollamatest: %v", err)
		}
	}
	t.Cleanup(func() {
		s.kill()
		s.hold.release()
		s.transport.CloseIdleConnections()
		if t.Failed() {
			t.Logf("ollamatest: tail of %s:\n%s", s.Log, s.LogTail())
		}
	})
	var lastErr error
	for range bindRetries {
		hold, port, err := holdPort(0)
		if err != nil {
			t.Fatalf("%v", err)
		}
		s.hold, s.Port = hold, port
		s.URL = "http://127.0.0.1:" + strconv.Itoa(port)
		if lastErr = s.launch(); lastErr == nil {
			return s
		}
		if !errors.Is(lastErr, errAddrInUse) {
			break
		}
	}
	t.Fatalf("ollamatest: start ollama serve: %v\n--- tail of %s ---\n%s", lastErr, s.Log, s.LogTail())
	return nil
}

var errAddrInUse = errors.New("address already in use")

// launch releases the held port, starts the server on it and waits until it answers.
func (s *Server) launch() error {
	logf, err := os.OpenFile(s.Log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer logf.Close() // the child has its own copy
	logStart, err := logf.Seek(0, io.SeekEnd)
	if err != nil {
		return err
	}
	fmt.Fprintf(logf, "--- ollamatest: starting on port %d at %s ---\n", s.Port, time.Now().Format(time.RFC3339Nano))
	cmd := exec.Command(s.bin, "serve")
	cmd.Env = s.environ()
	cmd.Stdout, cmd.Stderr = logf, logf
	// Its own process group, so killing it also kills the runner subprocesses it spawns.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	s.hold.release()
	if err := cmd.Start(); err != nil {
		return err
	}
	s.cmd, s.done = cmd, make(chan struct{})
	go func(done chan struct{}) {
		_ = cmd.Wait()
		// If serve died on its own, its runner children may still be in the group. The group id
		// cannot be reused while any member lives, so this reaches only our processes.
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		close(done)
	}(s.done)
	if err := s.waitReady(logStart); err != nil {
		s.kill()
		if strings.Contains(s.logSince(logStart), "address already in use") {
			return fmt.Errorf("%w: %w", errAddrInUse, err)
		}
		return err
	}
	return nil
}

func (s *Server) environ() []string {
	var env []string
	for _, kv := range os.Environ() {
		// The parent's Ollama settings and HOME must not leak into an isolated test server.
		if strings.HasPrefix(kv, "OLLAMA_") || strings.HasPrefix(kv, "HOME=") || strings.HasPrefix(kv, "TMPDIR=") {
			continue
		}
		env = append(env, kv)
	}
	env = append(env,
		"HOME="+filepath.Join(s.Dir, "home"),
		"TMPDIR="+filepath.Join(s.Dir, "tmp"),
		"OLLAMA_HOST=127.0.0.1:"+strconv.Itoa(s.Port),
		"OLLAMA_MODELS="+filepath.Join(s.Dir, "models"),
		"OLLAMA_KEEP_ALIVE="+s.cfg.keepAlive,
		"OLLAMA_NOPRUNE=1",
	)
	if s.cfg.numParallel > 0 {
		env = append(env, "OLLAMA_NUM_PARALLEL="+strconv.Itoa(s.cfg.numParallel))
	}
	return append(env, s.cfg.env...)
}

// waitReady waits until /api/version answers and this launch's log says it listens on our port:
// the answer alone could come from another test's server that took the port in the short window
// between release and bind.
func (s *Server) waitReady(logStart int64) error {
	listening := fmt.Sprintf("Listening on 127.0.0.1:%d ", s.Port)
	ctx, cancel := context.WithTimeout(context.Background(), readyTimeout)
	defer cancel()
	client := s.Client()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		if _, err := client.Version(ctx); err == nil && strings.Contains(s.logSince(logStart), listening) {
			return nil
		}
		select {
		case <-s.done:
			return fmt.Errorf("ollama serve exited before answering (%s)", s.cmd.ProcessState)
		case <-ctx.Done():
			return fmt.Errorf("ollama serve did not answer /api/version within %s", readyTimeout)
		case <-tick.C:
		}
	}
}

// kill kills the server's process group and waits for the server to exit.
func (s *Server) kill() {
	if s.cmd == nil {
		return
	}
	select {
	case <-s.done:
	default:
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-s.done
	}
	s.cmd = nil
}

// Stop kills the server (as a crash would) and waits for it. The port stays reserved, and
// connections to it are refused, until Restart.
func (s *Server) Stop(t testing.TB) {
	t.Helper()
	s.kill()
	s.transport.CloseIdleConnections()
	if s.hold != nil && s.hold.held() {
		return
	}
	hold, _, err := holdPort(s.Port)
	if err != nil {
		t.Logf("ollamatest: could not keep port %d reserved after stop: %v", s.Port, err)
		return
	}
	s.hold = hold
}

// Restart starts the server again on the same port with the same models directory.
func (s *Server) Restart(t testing.TB) {
	t.Helper()
	s.kill()
	if err := s.launch(); err != nil {
		t.Fatalf("ollamatest: restart ollama serve on port %d: %v\n--- tail of %s ---\n%s", s.Port, err, s.Log, s.LogTail())
	}
}

// Running reports whether the server process is alive.
func (s *Server) Running() bool {
	if s.cmd == nil {
		return false
	}
	select {
	case <-s.done:
		return false
	default:
		return true
	}
}

// Client returns an Ollama API client for this server.
func (s *Server) Client() *api.Client {
	u, err := url.Parse(s.URL)
	if err != nil {
		panic(err) // s.URL is built by this package
	}
	return api.NewClient(u, s.HTTPClient())
}

// HTTPClient returns an HTTP client for raw calls (e.g. /v1/chat/completions); its idle
// connections are closed when the test ends, so goroutine-leak checks stay quiet.
func (s *Server) HTTPClient() *http.Client { return &http.Client{Transport: s.transport} }

// logSince returns the log written from offset on ("" if it cannot be read).
func (s *Server) logSince(offset int64) string {
	f, err := os.Open(s.Log)
	if err != nil {
		return ""
	}
	defer f.Close()
	b, err := io.ReadAll(io.NewSectionReader(f, offset, 1<<30))
	if err != nil {
		return ""
	}
	return string(b)
}

// LogTail returns the last few KiB of the server's log.
func (s *Server) LogTail() string {
	b, err := os.ReadFile(s.Log)
	if err != nil {
		return fmt.Sprintf("(no log: %v)", err)
	}
	if len(b) > logTailSize {
		b = b[len(b)-logTailSize:]
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		}
	}
	return string(b)
}
