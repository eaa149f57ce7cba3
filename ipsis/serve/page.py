"""``GET /``: one self-contained page (inline CSS and JS, no external asset) to paste sources
and an answer (or pick stored sources by id, or load an example), press check, and read the
report rendered from ``POST /v1/check``'s JSON."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

from ipsis import __version__

EXAMPLES: dict[str, dict[str, object]] = {
    "en": {
        "sources": [
            {
                "id": "refunds-2025",
                "title": "Refunds policy",
                "text": "Refunds. A receipt is required for every refund. Refunds are paid within 14 days of the"
                " request, unless the goods were damaged by the customer. Gift cards are not refundable.",
            },
            {
                "id": "delivery-2025",
                "title": "Delivery policy",
                "text": "Delivery. Orders placed before 2 pm ship the same working day. Deliveries abroad take"
                " up to 10 working days and must be signed for.",
            },
        ],
        "answer": 'Refunds are paid "within 14 days of the request" [1].'
        ' The policy says: "Gift cards are refundable" [1].'
        ' Orders placed before 2 pm "ship the same working day" [2]. Deliveries abroad take up to 10 working'
        " days [2]. Store credit never expires.",
    },
    "pt": {
        "sources": [
            {
                "id": "trocas-2025",
                "title": "Política de trocas",
                "text": "Trocas. A troca exige a apresentação da nota fiscal. O reembolso é pago em até 14 dias"
                " do pedido, salvo se o produto tiver sido danificado pelo cliente. Vales-presente não são"
                " reembolsáveis.",
            },
            {
                "id": "entregas-2025",
                "title": "Política de entregas",
                "text": "Entregas. Pedidos feitos antes das 14h são despachados no mesmo dia útil. Entregas"
                " internacionais levam até 10 dias úteis e exigem assinatura.",
            },
        ],
        "answer": 'O reembolso é pago "em até 14 dias do pedido" [1]. A política diz: "Vales-presente são'
        ' reembolsáveis" [1]. Pedidos feitos antes das 14h "são despachados no mesmo dia útil" [2]. Entregas'
        " internacionais levam até 10 dias úteis [2]. O crédito na loja nunca expira.",
    },
    "es": {
        "sources": [
            {
                "id": "devoluciones-2025",
                "title": "Política de devoluciones",
                "text": "Devoluciones. Toda devolución exige el tique de compra. El reembolso se paga en un"
                " plazo de 14 días desde la solicitud, salvo que el cliente haya dañado el producto. Las"
                " tarjetas regalo no son reembolsables.",
            },
            {
                "id": "envios-2025",
                "title": "Política de envíos",
                "text": "Envíos. Los pedidos hechos antes de las 14 h salen el mismo día hábil. Los envíos"
                " internacionales tardan hasta 10 días hábiles y requieren firma.",
            },
        ],
        "answer": 'El reembolso se paga "en un plazo de 14 días desde la solicitud" [1]. La política dice: "Las'
        ' tarjetas regalo son reembolsables" [1]. Los pedidos hechos antes de las 14 h "salen el mismo día hábil" [2].'
        " Los envíos internacionales tardan hasta 10 días hábiles [2]. El saldo de la tienda nunca caduca.",
    },
}
"""The "load an example" answers, written for ipsis: one located quote, one quote that drops a
negation (not found), a bare citation, and an uncited sentence each."""


@lru_cache(maxsize=1)
def _template() -> str:
    return resources.files("ipsis.serve").joinpath("page.html").read_text(encoding="utf-8")


def page_html(*, auth: bool) -> str:
    """The page; with ``auth`` it shows a token field and sends ``Authorization: Bearer``."""
    config = json.dumps({"auth": auth, "version": __version__, "examples": EXAMPLES}, ensure_ascii=False)
    return _template().replace("/*CONFIG*/{}", config.replace("</", "<\\/"))
