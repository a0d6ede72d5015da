package e2e

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// densePII is a chat body of about size bytes of text dense with valid DNIs (one every ~15
// bytes): far past the 4 096 values a request may hold.
func densePII(size int) []byte {
	var sb strings.Builder
	sb.WriteString(`{"model":"m","messages":[{"role":"user","content":"`)
	const letters = "TRWAGMYFPDXBNJZSQVHLCKE"
	for n := 10000000; sb.Len() < size-8; n++ {
		fmt.Fprintf(&sb, "DNI %d%c, ", n, letters[n%23])
	}
	sb.WriteString(`"}]}`)
	return []byte(sb.String())
}

// mixedPII is a chat body of about size bytes of prose with a few hundred personal values: it
// is redacted and forwarded.
func mixedPII(size int) []byte {
	var sb strings.Builder
	sb.WriteString(`{"model":"m","messages":[{"role":"user","content":"`)
	const letters = "TRWAGMYFPDXBNJZSQVHLCKE"
	for i := 0; sb.Len() < size-64; i++ {
		if i%200 == 0 {
			n := 20000000 + i
			fmt.Fprintf(&sb, "El titular con DNI %d%c pide el extracto. ", n, letters[n%23])
		} else {
			sb.WriteString("Resumen del expediente sin datos personales, importe y plazos habituales. ")
		}
	}
	sb.WriteString(`"}]}`)
	return []byte(sb.String())
}

// buildAgent builds cmd/edge-agent once per run into dir.
func buildAgent(b *testing.B, dir string) string {
	b.Helper()
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	bin := filepath.Join(dir, "edge-agent")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/edge-agent")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build edge-agent: %v\n%s", err, out)
	}
	return bin
}

func freePort(b *testing.B) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// rss reads a process's resident set size and its high-water mark, in bytes.
func rss(pid int) (cur, hwm int64) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && (f[0] == "VmRSS:" || f[0] == "VmHWM:") {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			if f[0] == "VmRSS:" {
				cur = kb << 10
			} else {
				hwm = kb << 10
			}
		}
	}
	return cur, hwm
}

// BenchmarkAgentMemory (issue #14): the edge-agent binary, as a process of its own with its
// default configuration, takes 20 concurrent 4 MiB requests dense with personal data (refused:
// too many values), then 20 concurrent 4 MiB mostly-prose requests (redacted and forwarded).
// Printed: its RSS before, the peak (VmHWM) over each burst, how the requests were answered, and
// how long RSS takes to fall back under 64 MiB afterwards (the goal: peak under 256 MiB, back
// under 64 MiB within 30 s).
func BenchmarkAgentMemory(b *testing.B) {
	dir := b.TempDir()
	bin := buildAgent(b, dir)
	target := &captureTarget{}
	srv := httptest.NewServer(target)
	defer srv.Close()
	pkiDir := newPKI(b)
	gw := startGateway(b, pkiDir, srv.URL+"/v1")
	listen := freePort(b)
	cmd := exec.Command(bin, "--listen", listen, "--edge-id", edgeID, "--dc", gw, "--dc-server-name", "localhost", "--pki", pkiDir, "--log-level", "error")
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	url := "http://" + listen
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(url + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(deadline) {
			b.Fatal("the agent did not become ready")
		}
		time.Sleep(100 * time.Millisecond)
	}
	pid := cmd.Process.Pid
	idle, _ := rss(pid)
	b.ReportMetric(float64(idle)/(1<<20), "idle-rss-MiB")
	for _, burst := range []struct {
		name string
		body []byte
	}{{"dense", densePII(4<<20 - 1024)}, {"prose", mixedPII(4<<20 - 1024)}} {
		var mu sync.Mutex
		codes := map[int]int{}
		var wg sync.WaitGroup
		client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 32}}
		for i := 0; i < 20; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for attempt := 0; attempt < 50; attempt++ { // a refused request comes back after Retry-After
					req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, url+"/v1/chat/completions", bytes.NewReader(burst.body))
					req.Header.Set("Content-Type", "application/json")
					resp, err := client.Do(req)
					if err != nil {
						return
					}
					resp.Body.Close()
					mu.Lock()
					codes[resp.StatusCode]++
					mu.Unlock()
					if resp.StatusCode != http.StatusServiceUnavailable {
						return
					}
					time.Sleep(time.Second)
				}
			}()
		}
		wg.Wait()
		_, hwm := rss(pid)
		start := time.Now()
		var recovered time.Duration = -1
		for time.Since(start) < 45*time.Second {
			if cur, _ := rss(pid); cur < 64<<20 {
				recovered = time.Since(start)
				break
			}
			time.Sleep(250 * time.Millisecond)
		}
		b.Logf("%s burst: answers %v", burst.name, codes)
		b.ReportMetric(float64(hwm)/(1<<20), burst.name+"-peak-rss-MiB")
		b.ReportMetric(recovered.Seconds(), burst.name+"-seconds-to-under-64MiB")
	}
}

// BenchmarkRequestPeakHeap (issue #14): the live heap one 4 MiB request needs at its peak, in
// process. The collector runs at GOGC=10 during the measurement, so the sampled heap is close to
// what is live (at the default GOGC it would also count up to a heap's worth of garbage).
// Printed per body: the peak heap over the idle heap, and that as a multiple of the body (the
// goal: at most 16×).
func BenchmarkRequestPeakHeap(b *testing.B) {
	target := &captureTarget{}
	srv := httptest.NewServer(target)
	defer srv.Close()
	pkiDir := newPKI(b)
	gw := startGateway(b, pkiDir, srv.URL+"/v1")
	url, a := startAgent(b, pkiDir, gw)
	waitLink(b, a)
	_ = url
	old := debug.SetGCPercent(10)
	defer debug.SetGCPercent(old)
	for _, tc := range []struct {
		name string
		body []byte
	}{{"dense", densePII(4<<20 - 1024)}, {"prose", mixedPII(4<<20 - 1024)}} {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		base := ms.HeapAlloc
		var peak uint64
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			var m runtime.MemStats
			for {
				select {
				case <-stop:
					return
				default:
				}
				runtime.ReadMemStats(&m)
				peak = max(peak, m.HeapAlloc)
				time.Sleep(time.Millisecond)
			}
		}()
		req := httptest.NewRequest(http.MethodPost, "/v1/chat/completions", bytes.NewReader(tc.body))
		req.Header.Set("Content-Type", "application/json")
		req.Host = "127.0.0.1"
		rec := httptest.NewRecorder()
		a.Handler().ServeHTTP(rec, req)
		close(stop)
		<-done
		over := float64(max(peak, base)-base) / (1 << 20)
		b.Logf("%s: status %d", tc.name, rec.Code)
		b.ReportMetric(over, tc.name+"-peak-heap-MiB")
		b.ReportMetric(over/(float64(len(tc.body))/(1<<20)), tc.name+"-peak-heap-x-body")
	}
}
