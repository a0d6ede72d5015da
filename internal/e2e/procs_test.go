package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Real processes for the link tests: the released binaries (edge-agent, dc-gateway) built once
// per test binary, a paced OpenAI-compatible target, and helpers to kill, stop and restart them.

var (
	binOnce sync.Once
	binDir  string
	binErr  error
)

// TestMain removes the binaries releasedBinaries built (one temp dir per test binary run).
func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		_ = os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// releasedBinaries builds cmd/edge-agent and cmd/dc-gateway once per run into a temp dir.
func releasedBinaries(t testing.TB) (agentBin, gatewayBin string) {
	t.Helper()
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "sucursal-bins-")
		if binErr != nil {
			return
		}
		_, file, _, _ := runtime.Caller(0)
		root := filepath.Join(filepath.Dir(file), "..", "..")
		for _, name := range []string{"edge-agent", "dc-gateway"} {
			cmd := exec.Command("go", "build", "-o", filepath.Join(binDir, name), "./cmd/"+name)
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
			if out, err := cmd.CombinedOutput(); err != nil {
				binErr = fmt.Errorf("go build %s: %v\n%s", name, err, out)
				return
			}
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return filepath.Join(binDir, "edge-agent"), filepath.Join(binDir, "dc-gateway")
}

// freeAddr returns a loopback address free for network ("tcp" or "udp") right now.
func freeAddr(t testing.TB, network string) string {
	t.Helper()
	if network == "udp" {
		c, err := net.ListenPacket("udp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		return c.LocalAddr().String()
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// proc is a child process whose output is kept for the failure message.
type proc struct {
	name string
	cmd  *exec.Cmd
	out  *lockedBuffer
	done chan struct{}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func startProc(t testing.TB, name, bin string, args ...string) *proc {
	t.Helper()
	return startProcEnv(t, name, bin, nil, args...)
}

// startProcEnv is startProc with extra environment variables (KEY=VALUE).
func startProcEnv(t testing.TB, name, bin string, env []string, args ...string) *proc {
	t.Helper()
	return startProcSlack(t, name, bin, 0, env, args...)
}

// startProcSlack is startProcEnv with every thread of the process on a timer slack of slack (0:
// the test process's own), as systemd's TimerSlackNSec= gives it: the process is started from a
// thread whose slack was set with prctl, and a process inherits its parent thread's slack (kept
// across exec), its threads the slack of the thread that starts them.
func startProcSlack(t testing.TB, name, bin string, slack time.Duration, env []string, args ...string) *proc {
	t.Helper()
	p := &proc{name: name, cmd: exec.Command(bin, args...), out: &lockedBuffer{}, done: make(chan struct{})}
	if env != nil {
		p.cmd.Env = append(os.Environ(), env...)
	}
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	if err := startWithSlack(p.cmd, slack); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	go func() {
		_ = p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		p.kill()
		if t.Failed() && os.Getenv("SUCURSAL_TEST_LOGS") != "" {
			t.Logf("%s output:\n%s", name, p.out.String())
		}
	})
	return p
}

// kill is kill -9, and waits for the process to be gone.
func (p *proc) kill() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// term sends SIGTERM; wait waits for the exit.
func (p *proc) term() { _ = p.cmd.Process.Signal(syscall.SIGTERM) }

func (p *proc) wait(d time.Duration) bool {
	select {
	case <-p.done:
		return true
	case <-time.After(d):
		return false
	}
}

// gatewayProc runs dc-gateway on addr (UDP) with its /readyz on metrics (TCP).
func gatewayProc(t testing.TB, bin, pkiDir, targetURL, addr, metrics string, extra ...string) *proc {
	t.Helper()
	args := append([]string{"--listen", addr, "--pki", pkiDir, "--target-url", targetURL, "--metrics-listen", metrics, "--log-level", "warn"}, extra...)
	return startProc(t, "dc-gateway", bin, args...)
}

// agentProc runs edge-agent on listen against the gateway at dc (and secondaries).
func agentProc(t testing.TB, bin, pkiDir, listen, dc string, secondaries ...string) *proc {
	t.Helper()
	return agentProcWith(t, bin, "", pkiDir, listen, dc, secondaries...)
}

// agentProcWith is agentProc with a YAML configuration file holding config (flags win over it).
func agentProcWith(t testing.TB, bin, config, pkiDir, listen, dc string, secondaries ...string) *proc {
	t.Helper()
	args := []string{"--listen", listen, "--edge-id", edgeID, "--dc", dc, "--dc-server-name", "localhost", "--pki", pkiDir, "--log-level", "warn"}
	if config != "" {
		f := filepath.Join(t.TempDir(), "edge-agent.yaml")
		if err := os.WriteFile(f, []byte(config), 0o600); err != nil {
			t.Fatal(err)
		}
		args = append(args, "--config", f)
	}
	for _, s := range secondaries {
		args = append(args, "--dc-secondary", s)
	}
	return startProc(t, "edge-agent", bin, args...)
}

// waitHTTP polls url until it answers want, or fails the test after d.
func waitHTTP(t testing.TB, url string, want int, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		if code, _ := getStatus(url); code == want {
			return
		}
		if time.Now().After(deadline) {
			code, body := getStatus(url)
			t.Fatalf("%s did not answer %d within %s (last: %d %s)", url, want, d, code, body)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

var pollClient = &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}

func getStatus(url string) (int, string) {
	resp, err := pollClient.Get(url)
	if err != nil {
		return -1, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, strings.TrimSpace(string(b))
}

// pacedTarget is an OpenAI-compatible target that streams chunks answers, one every gap: a
// model server whose answers take a known time, without a model.
func pacedTarget(t testing.TB, chunks int, gap time.Duration) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/models":
			_, _ = io.WriteString(w, `{"object":"list","data":[{"id":"paced","object":"model"}]}`)
			return
		case "/v1/chat/completions":
		default:
			http.NotFound(w, r)
			return
		}
		var req struct {
			Stream bool `json:"stream"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		if !req.Stream {
			_, _ = io.WriteString(w, `{"id":"c1","object":"chat.completion","created":1,"model":"paced","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fl := w.(http.Flusher)
		for i := range chunks {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(gap):
			}
			finish := "null"
			if i == chunks-1 {
				finish = `"stop"`
			}
			fmt.Fprintf(w, "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"paced\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"w%d \"},\"finish_reason\":%s}]}\n\n", i, finish)
			fl.Flush()
		}
		_, _ = io.WriteString(w, "data: [DONE]\n\n")
		fl.Flush()
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// streamOutcome is how one streamed request ended, and when.
type streamOutcome struct {
	ok     bool   // [DONE] after the last chunk
	code   string // the error code (status or stream error event), or "" when ok
	chunks int
	end    time.Time
}

// streamChat sends a streamed chat request and reads it to its end. started is closed when the
// first chunk arrived (or the request ended without one).
func streamChat(ctx context.Context, url string, started chan<- struct{}) streamOutcome {
	once := sync.Once{}
	mark := func() {
		if started != nil {
			once.Do(func() { close(started) })
		}
	}
	defer mark()
	body := `{"model":"paced","stream":true,"messages":[{"role":"user","content":"a"}]}`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url+"/v1/chat/completions", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := httpClient().Do(req)
	if err != nil {
		return streamOutcome{code: "transport: " + err.Error(), end: time.Now()}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		raw, _ := io.ReadAll(resp.Body)
		var e openAIError
		_ = json.Unmarshal(raw, &e)
		return streamOutcome{code: fmt.Sprintf("%d %s", resp.StatusCode, deref(e.Error.Code)), end: time.Now()}
	}
	out := streamOutcome{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "data: [DONE]":
			out.ok, out.end = out.code == "", time.Now()
			return out
		case strings.HasPrefix(line, `data: {"error"`):
			var e openAIError
			_ = json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &e)
			out.code = "stream:" + deref(e.Error.Code)
		case strings.HasPrefix(line, "data: "):
			out.chunks++
			mark()
		}
	}
	if out.code == "" {
		out.code = "cut"
	}
	out.end = time.Now()
	return out
}

// quickChat sends one short non-streamed request and reports whether it was answered.
func quickChat(url string) (bool, string) {
	body := `{"model":"paced","messages":[{"role":"user","content":"a"}]}`
	resp, err := pollClient.Post(url+"/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		return false, err.Error()
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode == http.StatusOK {
		return true, ""
	}
	var e openAIError
	_ = json.Unmarshal(raw, &e)
	return false, fmt.Sprintf("%d %s", resp.StatusCode, deref(e.Error.Code))
}

// startWithSlack starts cmd from a thread of its own whose timer slack is slack (0: cmd.Start).
func startWithSlack(cmd *exec.Cmd, slack time.Duration) error {
	if slack <= 0 {
		return cmd.Start()
	}
	errc := make(chan error, 1)
	go func() {
		// Never unlocked: the thread, with its changed slack, ends with this goroutine.
		runtime.LockOSThread()
		if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_SET_TIMERSLACK, uintptr(slack), 0); e != 0 {
			errc <- fmt.Errorf("prctl(PR_SET_TIMERSLACK): %w", e)
			return
		}
		errc <- cmd.Start() // os/exec forks from the calling thread
	}()
	return <-errc
}

// threadSlacks returns the distinct timer slacks of pid's threads (/proc/<pid>/task/*/timerslack_ns).
func threadSlacks(pid int) ([]time.Duration, error) {
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		return nil, err
	}
	var out []time.Duration
	for _, task := range tasks {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%s/timerslack_ns", task.Name())) // not under task/: /proc/<tid>/ has it
		if err != nil {
			continue // the thread ended meanwhile
		}
		n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		if err != nil {
			return nil, err
		}
		if d := time.Duration(n); !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	slices.Sort(out)
	return out, nil
}
