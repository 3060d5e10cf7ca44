// Command iceberg-go-engine answers the Iceberg conformance suite's line protocol (version 2)
// with Apache iceberg-go. The protocol is its only contract with the suite.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

const (
	engineName    = "iceberg-go"
	engineVersion = "0.7.0"
)

// answer is one case's result in protocol version 2.
type answer struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Output any    `json:"output,omitempty"`
	Error  string `json:"error,omitempty"`
	Reason string `json:"reason,omitempty"`
}

func (a answer) MarshalJSON() ([]byte, error) {
	m := map[string]any{"id": a.ID, "status": a.Status}
	switch a.Status {
	case "ok":
		m["output"] = a.Output
	case "rejected", "error":
		m["error"] = a.Error
	case "unsupported":
		m["reason"] = a.Reason
	}
	return json.Marshal(m)
}

// rejection: the library refused the input as invalid.
type rejection struct{ err error }

func (r rejection) Error() string { return r.err.Error() }

func reject(err error) error { return rejection{err} }

func rejectf(format string, args ...any) error { return rejection{fmt.Errorf(format, args...)} }

// declined: iceberg-go does not implement this kind of case.
type declined struct{ reason string }

func (d declined) Error() string { return d.reason }

func decline(format string, args ...any) error { return declined{fmt.Sprintf(format, args...)} }

type opFunc func(c map[string]any) (any, error)

var ops = map[string]opFunc{}

func register(name string, fn opFunc) { ops[name] = fn }

func capabilities() []string {
	out := make([]string, 0, len(ops))
	for name := range ops {
		out = append(out, name)
	}
	sortStrings(out)
	return out
}

func runCase(c map[string]any) (a answer) {
	id, _ := c["id"].(string)
	a.ID = id
	defer func() {
		if r := recover(); r != nil {
			stack := string(debug.Stack())
			fmt.Fprintf(os.Stderr, "panic in case %s: %v\n%s\n", id, r, stack)
			a = answer{ID: id, Status: "error", Error: fmt.Sprintf("iceberg-go panicked: %v", r)}
		}
	}()
	op, _ := c["op"].(string)
	fn, ok := ops[op]
	if !ok {
		return answer{ID: id, Status: "unsupported", Reason: "the iceberg-go engine does not answer op " + op}
	}
	out, err := fn(c)
	if err != nil {
		var rej rejection
		var dec declined
		switch {
		case errors.As(err, &dec):
			return answer{ID: id, Status: "unsupported", Reason: dec.reason}
		case errors.As(err, &rej):
			return answer{ID: id, Status: "rejected", Error: rej.Error()}
		case errors.Is(err, errInput):
			return answer{ID: id, Status: "unsupported", Reason: err.Error()}
		default:
			return answer{ID: id, Status: "error", Error: err.Error()}
		}
	}
	return answer{ID: id, Status: "ok", Output: out}
}

func main() {
	reader := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	send := func(v any) {
		if err := enc.Encode(v); err != nil {
			fmt.Fprintf(os.Stderr, "cannot encode a reply: %v\n", err)
			_ = enc.Encode(map[string]any{"error": "cannot encode a reply: " + err.Error()})
		}
		out.Flush()
	}
	for {
		line, err := reader.ReadString('\n')
		if strings.TrimSpace(line) != "" {
			handle(line, send)
		}
		if err != nil {
			if err != io.EOF {
				fmt.Fprintf(os.Stderr, "reading stdin: %v\n", err)
			}
			return
		}
	}
}

func handle(line string, send func(any)) {
	dec := json.NewDecoder(strings.NewReader(line))
	dec.UseNumber()
	var msg map[string]any
	if err := dec.Decode(&msg); err != nil {
		send(map[string]any{"error": "not a JSON object: " + err.Error()})
		return
	}
	switch msg["cmd"] {
	case "start":
		send(map[string]any{
			"engine":       engineName,
			"version":      engineVersion,
			"protocol":     2,
			"capabilities": capabilities(),
		})
	case "run":
		cases, _ := msg["cases"].([]any)
		results := make([]any, 0, len(cases))
		for _, raw := range cases {
			c, _ := raw.(map[string]any)
			if c == nil {
				results = append(results, answer{Status: "error", Error: "a case is not an object"})
				continue
			}
			results = append(results, runCase(c))
		}
		send(map[string]any{"results": results})
	case "stop":
		os.Exit(0)
	default:
		send(map[string]any{"error": fmt.Sprintf("unknown command %v", msg["cmd"])})
	}
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
