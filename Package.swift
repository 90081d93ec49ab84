// swift-tools-version:6.0
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "herald",
    // Linux only: Herald needs libsystemd, SO_PEERCRED and Glibc. SwiftPM has no way to
    // name Linux in `platforms`, so no Apple platform is claimed either.
    products: [
        .executable(name: "heraldd", targets: ["heraldd"]),
        .executable(name: "heraldctl", targets: ["heraldctl"]),
        .executable(name: "herald-bench", targets: ["herald-bench"]),
        .executable(name: "herald-notify", targets: ["herald-notify"]),
        .executable(name: "herald-sync", targets: ["herald-sync"]),
        // An app's Swift client of heraldd (docs/clients.md).
        .library(name: "HeraldClient", targets: ["HeraldClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    ],
    targets: [
        // Wire types: JSON, JSON-RPC envelope, error codes, each method's params and result. No I/O.
        .target(
            name: "HeraldProtocol",
            swiftSettings: strictSettings
        ),
        // The rules: interactions, people, Focus, summary, delivery decisions. No I/O, injected clock.
        .target(
            name: "HeraldCore",
            dependencies: ["HeraldProtocol", "CPrefetch"],
            swiftSettings: strictSettings
        ),
        // The processor's prefetch hint, for a restart's look-ups in tables past the caches.
        .systemLibrary(name: "CPrefetch"),
        // SSE4.2's crc32 instruction for the snapshots' and the change log's checksums.
        .systemLibrary(name: "CCRC32C"),
        // Swift concurrency's global executor hook, where a static program's dlsym cannot reach it.
        .systemLibrary(name: "CConcurrencyHook"),
        // The state folder and its snapshots on disk: atomic writes, recovery, retention.
        .target(
            name: "HeraldStorage",
            dependencies: [
                "CCRC32C",
                "HeraldCore",
                "HeraldProtocol",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        // libsystemd, through pkg-config.
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        // libmosquitto, the MQTT reference client, through pkg-config: herald-sync's broker link.
        .systemLibrary(
            name: "CMosquitto",
            pkgConfig: "libmosquitto",
            providers: [.apt(["libmosquitto-dev"])]
        ),
        // sd_listen_fds, sd_notify, the journal writer and a swift-log handler.
        .target(
            name: "HeraldSystemd",
            dependencies: [
                "CSystemd",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // A small sd-bus client (libsystemd): method calls, signal matches, one event loop.
        .target(
            name: "HeraldBus",
            dependencies: ["CSystemd"],
            swiftSettings: strictSettings
        ),
        // What a presenter shows: heraldd's presenter events, and their mapping onto
        // org.freedesktop.Notifications' Notify arguments. Pure: no bus, no files.
        .target(
            name: "HeraldDesktop",
            dependencies: ["HeraldProtocol", "HeraldBus", .product(name: "DequeModule", package: "swift-collections")],
            swiftSettings: strictSettings
        ),
        // The app of a process, read from /proc as xdg-desktop-portal reads it: heraldd's
        // socket peers, and the senders herald-notify's gateway meets on the session bus.
        .target(
            name: "HeraldProcessIdentity",
            dependencies: ["HeraldCore"],
            swiftSettings: strictSettings
        ),
        // The Swift client library for apps: async calls generated from Protocol/openrpc.json,
        // typed errors, events as AsyncSequences, reconnection. heraldctl speaks through it.
        .target(
            name: "HeraldClient",
            dependencies: [
                "HeraldProtocol",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        // The NIO edge: framing, connections, peer credentials, dispatch.
        .target(
            name: "HeraldServer",
            dependencies: [
                "CConcurrencyHook",
                "HeraldProtocol",
                "HeraldCore",
                "HeraldProcessIdentity",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "heraldd",
            dependencies: [
                "HeraldServer",
                "HeraldSystemd",
                "HeraldStorage",
                "HeraldCore",
                "HeraldProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        // Herald from the shell: one subcommand per method, status, watch, inspect-snapshot.
        .executableTarget(
            name: "heraldctl",
            dependencies: [
                "HeraldClient",
                "HeraldProtocol",
                "HeraldCore",
                "HeraldStorage",
                "HeraldSync",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        // The load generator and the floor servers (bare sockets and SwiftNIO) of `make bench`.
        .executableTarget(
            name: "herald-bench",
            dependencies: [
                "CSystemd",
                "HeraldClient",
                "HeraldProtocol",
                "HeraldCore",
                "HeraldServer",
                "HeraldStorage",
                "HeraldBus",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        // Shows heraldd's notifications on the Linux desktop through org.freedesktop.Notifications.
        .executableTarget(
            name: "herald-notify",
            dependencies: [
                "CSystemd",
                "HeraldDesktop",
                "HeraldBus",
                "HeraldClient",
                "HeraldProtocol",
                "HeraldProcessIdentity",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: strictSettings
        ),
        // What herald-sync carries between hosts: the Focus message, its reader and writer,
        // and the hybrid logical clock that orders changes. Pure: no broker, no socket.
        .target(
            name: "HeraldSync",
            dependencies: ["HeraldProtocol"],
            swiftSettings: strictSettings
        ),
        // Shares a person's Focus between their hosts through an MQTT broker (docs/sync.md).
        .executableTarget(
            name: "herald-sync",
            dependencies: [
                "CMosquitto",
                "HeraldClient",
                "HeraldSync",
                "HeraldProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        // The sample messaging app on HeraldClient (examples/README.md); built and run by `make test`.
        .executableTarget(
            name: "herald-chat-example",
            dependencies: ["HeraldClient"],
            path: "examples/swift-chat",
            swiftSettings: strictSettings
        ),
        // Shared by the test targets: a JSON-RPC client over a Unix socket, and a way to start heraldd.
        .target(
            name: "HeraldTesting",
            dependencies: ["HeraldProtocol"],
            path: "Tests/HeraldTesting",
            swiftSettings: strictSettings
        ),
        .testTarget(name: "HeraldProtocolTests", dependencies: ["HeraldProtocol", "HeraldTesting"], swiftSettings: strictSettings),
        .testTarget(
            name: "HeraldCoreTests",
            dependencies: ["HeraldCore", "HeraldProtocol", "HeraldTesting"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "HeraldServerTests",
            dependencies: [
                "HeraldServer", "HeraldCore", "HeraldProcessIdentity", "HeraldProtocol", "HeraldStorage", "HeraldSystemd",
                "HeraldTesting",
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(name: "HeraldSystemdTests", dependencies: ["HeraldSystemd"], swiftSettings: strictSettings),
        .testTarget(name: "HeraldBusTests", dependencies: ["HeraldBus", "HeraldTesting"], swiftSettings: strictSettings),
        .testTarget(
            name: "HeraldDesktopTests",
            dependencies: ["HeraldDesktop", "HeraldBus", "HeraldProtocol"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "HeraldStorageTests",
            dependencies: ["HeraldStorage", "HeraldCore", "HeraldProtocol", "HeraldTesting"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "HeraldClientTests",
            dependencies: ["HeraldClient", "HeraldTesting"],
            swiftSettings: strictSettings
        ),
        .testTarget(name: "HeraldSyncTests", dependencies: ["HeraldSync", "HeraldProtocol"], swiftSettings: strictSettings),
        .testTarget(
            name: "HeraldEndToEndTests",
            dependencies: ["HeraldProtocol", "HeraldSystemd", "HeraldTesting", "HeraldBus"],
            swiftSettings: strictSettings
        ),
    ]
)
