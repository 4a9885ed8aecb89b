//! The r2r context, created without r2r's panic reaching the user.

/// Creates the r2r context. rcl parses the command line here; r2r panics
/// when it cannot (an unreadable or malformed `--params-file`, a bad
/// `--ros-args` rule): that becomes a one-line error instead of a panic.
pub(super) fn create_context() -> Result<r2r::Context, String> {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result = std::panic::catch_unwind(r2r::Context::create);
    std::panic::set_hook(previous);
    match result {
        Ok(context) => context.map_err(|e| format!("cannot initialise ROS: {e}")),
        Err(payload) => {
            let message = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_else(|| "unknown error".to_owned());
            Err(format!("cannot start: {message}"))
        }
    }
}
