package tcp_test

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
	"github.com/iggywire/iggywire/lifecycle/tcp"
)

// A Listener serves a Server on a TCP port; here a client logs in over
// loopback, and the Observer's Login hook sees the outcome.
func ExampleListener() {
	server, err := lifecycle.NewServer(lifecycle.Config{
		Window: codec.DefaultWindow(codec.MustPack(0, 11, 0)),
		Auth: lifecycle.StaticAuth{Users: []lifecycle.User{
			{ID: 1, Name: "iggy", Password: codec.NewSecret([]byte("iggy"))},
		}},
	})
	if err != nil {
		panic(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	logins := make(chan lifecycle.Login, 1)
	l := tcp.NewListener(ln, server, tcp.ServeOptions{Observer: tcp.Observer{
		Login: func(_ tcp.ConnInfo, r lifecycle.Login) { logins <- r },
	}})
	go func() { _ = l.Serve(context.Background()) }()
	defer func() { _ = l.Shutdown(context.Background()) }()

	nc, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		panic(err)
	}
	defer nc.Close()
	_ = nc.SetDeadline(time.Now().Add(5 * time.Second))
	client, err := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "go-sdk", SDKVersion: "0.1.0"})
	if err != nil {
		panic(err)
	}
	request, _ := client.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
	if _, err := nc.Write(request); err != nil {
		panic(err)
	}
	answer, err := codec.ReadFrame(nc, nil, codec.MaxFrameSize)
	if err != nil {
		panic(err)
	}
	reply, err := client.Receive(answer)
	fmt.Println("client:", err, "session", reply.Login.Session)
	r := <-logins
	fmt.Println("observer:", r.Label(), "user", r.UserID)
	// Output:
	// client: <nil> session 1
	// observer: OK user 1
}

// Resolved shows the options a Listener uses: zero fields take their
// defaults, the shares follow MaxConns, and a negative value turns a limit
// off (-1).
func ExampleServeOptions_Resolved() {
	o := tcp.ServeOptions{MaxConns: 800, AcceptBurst: -5}.Resolved()
	fmt.Println("sessions per user:", o.MaxSessionsPerUser, "per address:", o.MaxConnsPerAddr, "reserved:", o.ReservedConns)
	fmt.Println("accept burst:", o.AcceptBurst, "login timeout:", o.LoginTimeout)
	d := tcp.DefaultServeOptions()
	fmt.Println("default max conns:", d.MaxConns, "sessions per user:", d.MaxSessionsPerUser)
	// Output:
	// sessions per user: 100 per address: 100 reserved: 100
	// accept burst: -1 login timeout: 10s
	// default max conns: 8192 sessions per user: 1024
}
