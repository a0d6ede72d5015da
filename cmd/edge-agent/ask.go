package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/openaicompat"
)

// newAskCmd is the branch-IT smoke test: send one prompt to a running agent and stream the answer
// to the terminal, with the time to first token.
func newAskCmd() *cobra.Command {
	var url, model string
	var maxTokens int
	var noStream bool
	cmd := &cobra.Command{
		Use:   "ask [flags] PROMPT",
		Short: "Send one prompt to a running edge-agent and stream the answer (a smoke test for branch IT)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return ask(cmd.OutOrStdout(), cmd.ErrOrStderr(), url, model, args[0], maxTokens, !noStream)
		},
	}
	f := cmd.Flags()
	f.StringVar(&url, "url", "http://127.0.0.1:8080", "the edge-agent's base URL")
	f.StringVar(&model, "model", "", "model name as the datacenter target knows it (required)")
	f.IntVar(&maxTokens, "max-tokens", 256, "upper bound of the answer's length in tokens")
	f.BoolVar(&noStream, "no-stream", false, "ask for a whole answer instead of a stream")
	_ = cmd.MarkFlagRequired("model")
	return cmd
}

func ask(stdout, stderr io.Writer, url, model, prompt string, maxTokens int, stream bool) error {
	n := int64(maxTokens)
	req := chat.Request{Model: model, Stream: stream, Messages: []chat.Message{{Role: "user", Content: chat.TextContent(prompt)}},
		MaxTokens: &n}
	body, err := json.Marshal(req)
	if err != nil {
		return err
	}
	start := time.Now()
	resp, err := http.Post(strings.TrimRight(url, "/")+"/v1/chat/completions", "application/json", bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("cannot reach the edge-agent at %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		e := chat.ParseError(resp.StatusCode, b)
		return fmt.Errorf("%d %s: %s", resp.StatusCode, e.Code, e.Message)
	}
	if !stream {
		var c chat.Completion
		if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
			return fmt.Errorf("unreadable answer: %w", err)
		}
		for _, ch := range c.Choices {
			if ch.Message.Content.Text != nil {
				fmt.Fprintln(stdout, *ch.Message.Content.Text)
			}
		}
		fmt.Fprintf(stderr, "(answered in %s)\n", time.Since(start).Round(time.Millisecond))
		return nil
	}
	sse := openaicompat.NewSSEReader(resp.Body, 8<<20)
	var ttft time.Duration
	chunks := 0
	for {
		data, err := sse.Next()
		if errors.Is(err, io.EOF) {
			return errors.New("the stream ended without [DONE]")
		}
		if err != nil {
			return err
		}
		if string(data) == "[DONE]" {
			break
		}
		if bytes.HasPrefix(data, []byte(`{"error"`)) {
			e := chat.ParseError(http.StatusBadGateway, data)
			return fmt.Errorf("the stream failed: %s: %s", e.Code, e.Message)
		}
		var c chat.Chunk
		if err := json.Unmarshal(data, &c); err != nil {
			return fmt.Errorf("unreadable chunk: %w", err)
		}
		for _, ch := range c.Choices {
			if ch.Delta.Content != nil && *ch.Delta.Content != "" {
				if ttft == 0 {
					ttft = time.Since(start)
				}
				fmt.Fprint(stdout, *ch.Delta.Content)
				chunks++
			}
		}
	}
	fmt.Fprintln(stdout)
	fmt.Fprintf(stderr, "(%d chunks, first after %s, done in %s)\n", chunks, ttft.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	return nil
}
