from django.urls import path

from memories.review import views as review

urlpatterns = [
    path("review/", review.review_queue, name="review"),
    path("review/badge/", review.review_badge, name="review-badge"),
    path("review/bulk/", review.review_bulk, name="review-bulk"),
    path("review/memory/<int:pk>/", review.review_item, name="review-item"),
    path("review/memory/<int:pk>/approve/", review.review_approve, name="review-approve"),
    path("review/memory/<int:pk>/reject/", review.review_reject, name="review-reject"),
    path("review/memory/<int:pk>/pin/", review.review_pin, name="review-pin"),
    path("review/memory/<int:pk>/edit/", review.review_edit, name="review-edit"),
    path("review/memory/<int:pk>/person/", review.review_choose_person, name="review-choose-person"),
    path("review/entity/<int:pk>/", review.entity_review_answer, name="entity-review-answer"),
]
