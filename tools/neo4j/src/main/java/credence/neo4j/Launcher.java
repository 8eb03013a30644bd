package credence.neo4j;

/*
 * Runs a Neo4j 5.26 Community DBMS for Credence straight from Maven Central jars (no Docker, no
 * Neo4j tarball). See tools/neo4j/README.md.
 *
 *   java <jvm flags> -cp "target/credence-neo4j-launcher.jar:target/lib/*" credence.neo4j.Launcher \
 *        --home DIR --bolt-port P [--http-port H] [--pagecache 256m]
 *
 * stdin:  first line = password of user "neo4j"; after that, EOF (parent died or closed the pipe)
 *         means "shut down cleanly and exit".
 * stdout: exactly one line, "CREDENCE-NEO4J READY bolt://127.0.0.1:P[ http://127.0.0.1:H]".
 * stderr: Neo4j's user log (INFO and up) and our errors. debug.log is written to DIR/logs/.
 *
 * JVM flags. These come from the neo4j.conf shipped with 5.26 (server.jvm.additional); none is
 * needed to start, but without them Neo4j silently takes slower paths:
 *   --add-opens=java.base/java.nio=ALL-UNNAMED      page cache uses DirectByteBuffer internals
 *                                                    (otherwise: "using fallback mode" warning)
 *   --add-opens=java.base/java.io=ALL-UNNAMED       both needed to get at raw file descriptors for
 *   --add-opens=java.base/sun.nio.ch=ALL-UNNAMED    fadvise on tx logs ("Incorrect file descriptor")
 *   --enable-native-access=ALL-UNNAMED
 *   -Dio.netty.tryReflectionSetAccessible=true       Netty (Bolt) may use cleaner-less direct buffers
 *   -XX:+UseG1GC -XX:-OmitStackTraceInFastThrow -Xmx1g (heap + page cache ~ the footprint)
 * --add-opens=java.base/java.lang=ALL-UNNAMED is not in 5.26's neo4j.conf; harmless, no effect seen.
 */

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.neo4j.cli.ExecutionContext;
import org.neo4j.commandline.admin.security.SetInitialPasswordCommand;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilderImplementation;
import org.neo4j.io.fs.DefaultFileSystemAbstraction;
import org.neo4j.logging.Level;
import org.neo4j.logging.log4j.Log4jLogProvider;
import picocli.CommandLine;

public final class Launcher {
    private static volatile DatabaseManagementService dbms;

    public static void main(String[] argv) {
        try {
            run(argv);
        } catch (IllegalArgumentException e) { // bad command line or stdin: the message says it all
            System.err.println("CREDENCE-NEO4J ERROR: " + e.getMessage());
            System.exit(2);
        } catch (Throwable t) {
            System.err.println("CREDENCE-NEO4J ERROR: " + t);
            t.printStackTrace(System.err);
            System.exit(1); // also stops any Neo4j threads a failed start left behind
        }
    }

    private static void run(String[] argv) throws Exception {
        Map<String, String> opt = parseArgs(argv);
        Path home = Path.of(required(opt, "--home")).toAbsolutePath();
        int boltPort = Integer.parseInt(required(opt, "--bolt-port"));
        String httpPort = opt.get("--http-port");
        if (httpPort != null) Integer.parseInt(httpPort);

        // The password is the first line of stdin, so it never shows up in argv (ps) or the environment.
        BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String password = stdin.readLine();
        if (password == null || password.isEmpty()) {
            throw new IllegalArgumentException("expected the neo4j password as the first line of stdin");
        }

        Files.createDirectories(home);
        // First start: seed data/dbms/auth.ini exactly like `neo4j-admin dbms set-initial-password`,
        // so the default neo4j/neo4j account (password change required) never exists while Bolt listens.
        if (Files.notExists(home.resolve("data/databases/system"))) {
            var quiet = new PrintStream(OutputStream.nullOutputStream()); // stdout is reserved for READY
            var ctx = new ExecutionContext(home, home.resolve("conf"), quiet, System.err, new DefaultFileSystemAbstraction());
            int rc = new CommandLine(new SetInitialPasswordCommand(ctx)).execute(password);
            if (rc != 0) throw new IllegalArgumentException("the neo4j password was rejected (reason above)");
        }

        Map<String, String> cfg = new HashMap<>(); // the same names one would put in neo4j.conf
        cfg.put("dbms.security.auth_enabled", "true");
        cfg.put("server.default_listen_address", "127.0.0.1"); // nothing listens beyond loopback
        cfg.put("server.default_advertised_address", "127.0.0.1");
        cfg.put("server.bolt.enabled", "true");
        cfg.put("server.bolt.listen_address", "127.0.0.1:" + boltPort);
        cfg.put("server.bolt.advertised_address", "127.0.0.1:" + boltPort);
        // The HTTP connector brings Jetty, discovery, the Query API and Neo4j Browser (served from the
        // neo4j-browser jar on the classpath). Embedded mode leaves it off unless asked for.
        cfg.put("server.http.enabled", String.valueOf(httpPort != null));
        if (httpPort != null) {
            cfg.put("server.http.listen_address", "127.0.0.1:" + httpPort);
            cfg.put("server.http.advertised_address", "127.0.0.1:" + httpPort);
        }
        cfg.put("server.https.enabled", "false");
        cfg.put("server.memory.pagecache.size", opt.getOrDefault("--pagecache", "256m"));
        // Small transaction logs: no preallocation, 32 MB files, keep only the last 2 files.
        cfg.put("db.tx_log.preallocate", "false");
        cfg.put("db.tx_log.rotation.size", "32m");
        cfg.put("db.tx_log.rotation.retention_policy", "2 files");
        // Embedded mode has no import directory, so LOAD CSV could read any file this user can read.
        cfg.put("dbms.security.allow_csv_import_from_file_urls", "false");
        cfg.put("dbms.usage_report.enabled", "false"); // no phoning home...
        cfg.put("client.allow_telemetry", "false");     // ...from the DBMS or from Neo4j Browser
        // On shutdown Bolt waits 5 s for its worker pool and 5 s for connections even when idle, so
        // every stop would take over 10 s. Neo4j-internal settings (unsupported, but present in 5.26).
        cfg.put("internal.server.bolt.thread_pool_shutdown_wait_time", "1s");
        cfg.put("internal.server.bolt.connection_shutdown_wait_time", "1s");

        dbms = new DatabaseManagementServiceBuilderImplementation(home)
                .setConfigRaw(cfg)
                // Embedded mode has no neo4j.log: send the user log to stderr so start-up problems show.
                .setUserLogProvider(new Log4jLogProvider(System.err, Level.INFO))
                .build();
        Runtime.getRuntime().addShutdownHook(new Thread(Launcher::shutdown, "credence-neo4j-shutdown"));

        if (!dbms.database("neo4j").isAvailable(TimeUnit.MINUTES.toMillis(2))) {
            throw new IllegalStateException("database 'neo4j' did not become available within 2 minutes");
        }
        // Every start: make the stdin password authoritative (it may differ from the last run's) and
        // clear "change required", so Bolt clients never get "credentials expired".
        try {
            dbms.database("system").executeTransactionally(
                    "ALTER USER neo4j SET PASSWORD $pw CHANGE NOT REQUIRED", Map.of("pw", password));
        } catch (RuntimeException e) {
            // Neo4j refuses to "change" a password to its current value: the normal case on a restart.
            if (!String.valueOf(e.getMessage()).contains("Old password and new password cannot be the same")) throw e;
        }
        // auth.ini only seeds an empty system database; don't leave a password hash lying around.
        Files.deleteIfExists(home.resolve("data/dbms/auth.ini"));

        Thread watcher = new Thread(() -> {
            try {
                while (stdin.readLine() != null) { /* further input is ignored */ }
            } catch (Exception ignored) {
                // a broken pipe means the same as EOF
            }
            System.exit(0); // runs the shutdown hook
        }, "credence-neo4j-stdin");
        watcher.setDaemon(true);
        watcher.start();

        System.out.println("CREDENCE-NEO4J READY bolt://127.0.0.1:" + boltPort
                + (httpPort != null ? " http://127.0.0.1:" + httpPort : ""));
        System.out.flush();
        Thread.currentThread().join(); // Neo4j runs on its own threads; we leave via System.exit
    }

    // Shutdown hook (SIGTERM, SIGINT, System.exit after stdin EOF): checkpoint and release the store.
    private static synchronized void shutdown() {
        if (dbms != null) {
            dbms.shutdown();
            dbms = null;
        }
    }

    private static Map<String, String> parseArgs(String[] argv) {
        Map<String, String> opt = new HashMap<>();
        for (int i = 0; i < argv.length; i += 2) {
            if (!argv[i].matches("--(home|bolt-port|http-port|pagecache)") || i + 1 >= argv.length) {
                throw new IllegalArgumentException("bad argument '" + argv[i] + "'; usage: credence.neo4j.Launcher"
                        + " --home DIR --bolt-port P [--http-port H] [--pagecache 256m]");
            }
            opt.put(argv[i], argv[i + 1]);
        }
        return opt;
    }

    private static String required(Map<String, String> opt, String key) {
        String v = opt.get(key);
        if (v == null) throw new IllegalArgumentException("missing required argument " + key);
        return v;
    }
}
