"""A stand-in for litellm: chat completions through the openai package, and litellm's errors."""

import os

suppress_debug_info = True
set_verbose = False
drop_params = True
model_cost = {}


class _Logging:
    @staticmethod
    def _disable_debugging():
        return None


_logging = _Logging()


class _Base(Exception):
    status_code = None

    def __init__(self, message="", status_code=None, **_ignored):
        super().__init__(message)
        self.message = message
        if status_code is not None:
            self.status_code = status_code


_NAMES = [
    "APIConnectionError", "APIError", "APIResponseValidationError", "AuthenticationError",
    "AzureOpenAIError", "BadGatewayError", "BadRequestError", "BudgetExceededError",
    "ContentPolicyViolationError", "ContextWindowExceededError", "ImageFetchError",
    "InternalServerError", "InvalidRequestError", "JSONSchemaValidationError", "NotFoundError",
    "PermissionDeniedError", "OpenAIError", "RateLimitError", "RouterRateLimitError",
    "ServiceUnavailableError", "UnprocessableEntityError", "UnsupportedParamsError",
]
for _name in _NAMES:
    globals()[_name] = type(_name, (_Base,), {})
Timeout = type("Timeout", (_Base,), {})

_BY_STATUS = {
    400: "BadRequestError", 401: "AuthenticationError", 403: "PermissionDeniedError",
    404: "NotFoundError", 422: "UnprocessableEntityError", 429: "RateLimitError",
    500: "InternalServerError", 502: "BadGatewayError", 503: "ServiceUnavailableError",
}


def _client(api_base=None, api_key=None, timeout=None):
    import openai

    return openai.OpenAI(
        base_url=api_base or os.environ.get("OPENAI_API_BASE") or os.environ.get("OPENAI_BASE_URL"),
        api_key=api_key or os.environ.get("OPENAI_API_KEY") or "none",
        timeout=timeout or 600,
        max_retries=0,
    )


def completion(model, messages, stream=False, timeout=None, api_base=None, api_key=None, **kwargs):
    import openai

    name = model.split("/", 1)[1] if model.startswith("openai/") else model
    allowed = {k: v for k, v in kwargs.items() if k in ("temperature", "tools", "tool_choice", "max_tokens")}
    try:
        result = _client(api_base, api_key, timeout).chat.completions.create(
            model=name, messages=messages, stream=stream, **allowed
        )
        if not stream:
            return result
        return _stream(result)
    except openai.APIStatusError as err:
        cls = globals()[_BY_STATUS.get(err.status_code, "APIError")]
        raise cls(f"litellm.{cls.__name__}: OpenAIException - {err.message}", status_code=err.status_code)
    except openai.APITimeoutError as err:
        raise Timeout(f"litellm.Timeout: {err}")
    except openai.APIConnectionError as err:
        raise APIConnectionError(f"litellm.APIConnectionError: OpenAIException - {err}")  # noqa: F821


def _stream(result):
    import openai

    try:
        for chunk in result:
            yield chunk
    except openai.APIError as err:
        raise APIError(f"litellm.APIError: {err}")  # noqa: F821


def get_model_info(model):
    """What aider asks of any model: a chat model with a context window and no price."""
    return {
        "key": model,
        "max_tokens": 8192,
        "max_input_tokens": 128000,
        "max_output_tokens": 8192,
        "input_cost_per_token": 0.0,
        "output_cost_per_token": 0.0,
        "litellm_provider": "openai",
        "mode": "chat",
    }


def validate_environment(model):
    return {"keys_in_environment": True, "missing_keys": []}


def encode(model=None, text=""):
    return list(range(max(1, len(text) // 4)))


def token_counter(model=None, messages=None, text=None):
    total = 0
    for message in messages or []:
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, str):
            total += len(content) // 4 + 4
    if text:
        total += len(text) // 4
    return total


def completion_cost(completion_response=None, **_ignored):
    return 0.0


def transcription(*_args, **_kwargs):
    raise APIError("no transcription")  # noqa: F821
