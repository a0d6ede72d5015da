package loadbench

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Snapshot is what was measured, and how: enough to run it again and to know whether two reports
// are comparable.
type Snapshot struct {
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished"`
	// Command is the command line that produced the report; with the scenario file (its digest
	// below) it reproduces the run.
	Command        []string `json:"command"`
	ScenarioFile   string   `json:"scenario_file"`
	ScenarioSHA256 string   `json:"scenario_sha256"`
	Seed           uint64   `json:"seed"`
	Binary         Binary   `json:"binary"`
	Target         string   `json:"target"`
	Models         []Model  `json:"models,omitempty"` // GET /models of the target
	ModelsError    string   `json:"models_error,omitempty"`
	Machine        Machine  `json:"machine"` // where the bench ran (the server too, on one box)
	Declared       Declared `json:"declared"`
	// Agent is the admission and drafting configuration of the edge-agent measured, when the run
	// was given its configuration file; AgentNote says why not otherwise.
	Agent     map[string]any `json:"agent_settings,omitempty"`
	AgentNote string         `json:"agent_settings_note,omitempty"`
	SLO       SLO            `json:"slo"`
	// QueueWait says where the queue waits come from, or why there are none.
	QueueWait string `json:"queue_wait"`
}

// Binary is the bench's own build.
type Binary struct {
	Version  string `json:"version"`
	Commit   string `json:"commit"`
	Built    string `json:"built"`
	Go       string `json:"go"`
	Platform string `json:"platform"`
}

// Model is one entry of the target's /models.
type Model struct {
	ID      string `json:"id"`
	OwnedBy string `json:"owned_by,omitempty"`
	Created int64  `json:"created,omitempty"`
}

// Machine is the hardware the bench ran on, from /proc.
type Machine struct {
	CPU         string `json:"cpu"`
	Cores       int    `json:"cores"`
	MemoryBytes int64  `json:"memory_bytes"`
	LoadStart   string `json:"loadavg_start"` // 1, 5 and 15 minute load averages
	LoadEnd     string `json:"loadavg_end"`
}

// ReadMachine reads the CPU model, cores, memory and load average (Linux /proc; other systems
// report what runtime knows).
func ReadMachine() Machine {
	m := Machine{Cores: runtime.NumCPU(), CPU: runtime.GOARCH, LoadStart: loadavg()}
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPU = strings.TrimSpace(v)
				break
			}
		}
		f.Close()
	}
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				f := strings.Fields(v)
				if len(f) > 0 {
					if kb, err := strconv.ParseInt(f[0], 10, 64); err == nil {
						m.MemoryBytes = kb << 10
					}
				}
			}
		}
	}
	return m
}

func loadavg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// Models lists the target's models (GET <base>/models).
func (c *Client) Models(ctx context.Context) ([]Model, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(c.Base, "/")+"/models", nil)
	if err != nil {
		return nil, err
	}
	if c.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET /models: %d", resp.StatusCode)
	}
	var list struct {
		Data []Model `json:"data"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 4<<20)).Decode(&list); err != nil {
		return nil, fmt.Errorf("GET /models: %w", err)
	}
	return list.Data, nil
}
