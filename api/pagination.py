"""Every list is paginated by page number (``?page=2``, ``?page_size=100`` up to 200)."""

from rest_framework.pagination import PageNumberPagination


class Pagination(PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 200
