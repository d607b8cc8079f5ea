package viewer

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/meshrig/meshrig/character"
)

func TestServeUntilContextEnds(t *testing.T) {
	r, _ := snake(t)
	ts := newServer(t, Options{Rig: r})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- ts.Serve(ctx) }()
	req, _ := http.NewRequest("GET", "http://"+ts.Addr()+"/api/state", nil)
	req.Header.Set(TokenHeader, ts.Token())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var st State
	err = json.NewDecoder(resp.Body).Decode(&st)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 || len(st.Joints) != r.Skeleton.Len() {
		t.Fatalf("state over HTTP: %d %v %+v", resp.StatusCode, err, st)
	}
	cancel()
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if c, err := net.Dial("tcp", ts.Addr()); err == nil {
		c.Close()
		t.Error("still listening after Serve returned")
	}
}

func TestAllowedHosts(t *testing.T) {
	for _, c := range []struct {
		listen  string
		want    []string
		refused []string
	}{
		{"127.0.0.1", []string{"127.0.0.1:8080", "localhost:8080", "[::1]:8080"}, []string{"127.0.0.1:8081", "example.com:8080", "127.0.0.2:8080"}},
		{"localhost", []string{"127.0.0.1:8080", "localhost:8080"}, []string{"evil.localhost:8080"}},
		{"192.168.7.9", []string{"192.168.7.9:8080"}, []string{"127.0.0.1:8080", "localhost:8080"}},
		{"meshrig.lan", []string{"meshrig.lan:8080"}, []string{"127.0.0.1:8080"}},
		{"0.0.0.0", []string{"127.0.0.1:8080", "localhost:8080"}, []string{"example.com:8080"}},
		{"::", []string{"[::1]:8080", "127.0.0.1:8080"}, []string{"example.com:8080"}},
	} {
		hosts := allowedHosts(c.listen, 8080)
		for _, h := range c.want {
			if !hosts[h] {
				t.Errorf("listening on %s: Host %s refused", c.listen, h)
			}
		}
		for _, h := range c.refused {
			if hosts[h] {
				t.Errorf("listening on %s: Host %s allowed", c.listen, h)
			}
		}
	}
}

// Serving a rig and reading its state as the page does.
func ExampleNew() {
	r, err := character.Generate(character.Hand, character.Options{Frames: 4, Vertices: 600})
	if err != nil {
		panic(err)
	}
	srv, err := New(Options{Rig: r, Input: character.Sequence(r), Name: "hand.glb"})
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	// In `meshrig view`: fmt.Println(srv.URL()); srv.Serve(ctx).
	req := httptest.NewRequest("GET", "/api/state", nil)
	req.Host = srv.Addr()
	req.Header.Set(TokenHeader, srv.Token())
	w := httptest.NewRecorder()
	srv.Handler().ServeHTTP(w, req)
	var st State
	b, _ := io.ReadAll(w.Body)
	json.Unmarshal(b, &st)
	fmt.Println(st.Name, len(st.Joints), "joints,", st.Clips[0].Frames, "frames, input:", st.HasInput)
	// Output: hand.glb 16 joints, 4 frames, input: true
}
